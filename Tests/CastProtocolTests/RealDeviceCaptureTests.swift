// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@testable import CastProtocol

/// Messages recorded from real devices and apps by other projects (Tests/Fixtures/real-devices,
/// SOURCES.md there says where each comes from). Each must decode through the same path a
/// received frame takes, and say what the capture says.
enum RealCaptures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/real-devices")

    struct Entry: Decodable, CustomTestStringConvertible {
        var file: String
        var namespace: String
        var device: String
        var app: String
        var testDescription: String { file }
    }

    static let all: [Entry] = {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")) else { return [] }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }()

    static func text(_ e: Entry) throws -> String {
        try String(contentsOf: root.appendingPathComponent(e.file), encoding: .utf8)
    }
}

@Suite struct RealDeviceCaptures {
    @Test func theCorpusIsThere() {
        #expect(RealCaptures.all.count >= 40)
        for ns in [CastNamespace.receiverURN, CastNamespace.mediaURN, "urn:x-cast:com.google.cast.multizone"] {
            #expect(RealCaptures.all.contains { $0.namespace == ns }, "no capture on \(ns)")
        }
    }

    @Test(arguments: RealCaptures.all)
    func decodesAndSaysWhatTheCaptureSays(entry: RealCaptures.Entry) throws {
        let text = try RealCaptures.text(entry)
        let raw = try json(text)
        let message = CastMessage(source: "receiver-0", destination: "sender-1", namespace: entry.namespace, utf8: text)
        let decoded: NamespacedMessage
        do {
            decoded = try message.decoded()
        } catch {
            Issue.record("capture-decode: \(entry.file): FAILED: \(error)")
            return
        }
        switch decoded {
        case .receiver(.receiverStatus(let m)):
            #expect(m.requestId == raw["requestId"]?.intValue)
            let apps = raw["status"]?["applications"]?.arrayValue ?? []
            #expect(m.status.applications?.count ?? 0 == apps.count)
            for (app, rawApp) in zip(m.status.applications ?? [], apps) {
                #expect(app.appId == rawApp["appId"]?.stringValue)
                #expect(app.displayName == rawApp["displayName"]?.stringValue)
                #expect(app.statusText == rawApp["statusText"]?.stringValue)
            }
            #expect(m.status.volume?.level == raw["status"]?["volume"]?["level"]?.doubleValue)
            #expect(m.status.isActiveInput == raw["status"]?["isActiveInput"]?.boolValue)
        case .media(.mediaStatus(let m)):
            #expect(m.requestId == raw["requestId"]?.intValue)
            let statuses = raw["status"]?.arrayValue ?? (raw["playerState"] == nil ? [] : [raw])
            #expect(m.status.count == statuses.count)
            for (s, rawStatus) in zip(m.status, statuses) {
                #expect(s.playerState.rawValue == rawStatus["playerState"]?.stringValue?.uppercased())
                #expect(s.currentTime == rawStatus["currentTime"]?.doubleValue)
                #expect(s.media?.metadata?.title == rawStatus["media"]?["metadata"]?["title"]?.stringValue)
                #expect(s.media?.duration == rawStatus["media"]?["duration"]?.doubleValue)
            }
        case .receiver(.launchError(let m)):
            #expect(m.requestId == raw["requestId"]?.intValue)
            #expect(m.reason?.rawValue == raw["reason"]?.stringValue)
        case .multizone(.multizoneStatus(let m)):
            #expect(m.requestId == raw["requestId"]?.intValue)
            let devices = raw["status"]?["devices"]?.arrayValue ?? []
            #expect(m.status?.devices?.map(\.deviceId) == devices.compactMap { $0["deviceId"]?.stringValue })
            #expect(m.status?.devices?.map(\.volume?.level) == devices.map { $0["volume"]?["level"]?.doubleValue })
            #expect(m.status?.isMultichannel == raw["status"]?["isMultichannel"]?.boolValue)
        case .multizone(.deviceAdded(let m)), .multizone(.deviceUpdated(let m)):
            #expect(m.device.deviceId == raw["device"]?["deviceId"]?.stringValue)
            #expect(m.device.name == raw["device"]?["name"]?.stringValue)
            #expect(m.device.capabilities == raw["device"]?["capabilities"]?.intValue)
            #expect(m.device.volume?.level == raw["device"]?["volume"]?["level"]?.doubleValue)
        case .multizone(.deviceRemoved(let m)):
            #expect(m.deviceId == raw["deviceId"]?.stringValue)
        case .custom(let ns, _):
            #expect(ns == entry.namespace)
        default:
            Issue.record("capture-decode: \(entry.file): decoded as \(decoded)")
        }
    }
}
