// SPDX-FileCopyrightText: CastDeck contributors
// SPDX-License-Identifier: GPL-3.0-or-later

import CastCore
import Foundation

/// A device the user added by address, as remembered on disk.
public struct ManualDevice: Sendable, Hashable, Codable {
    public var host: String
    public var port: Int
    /// The last name learned for it (probe, or a discovered device at the same address).
    public var name: String?
    /// The device id, once known.
    public var id: String?

    public init(host: String, port: Int, name: String? = nil, id: String? = nil) {
        self.host = host
        self.port = port
        self.name = name
        self.id = id
    }

    public var address: DeviceAddress { DeviceAddress(host: host, port: port) }

    /// How the device list shows it until discovery or a probe says more.
    public var device: CastDevice {
        CastDevice(
            id: address.description, friendlyName: name ?? address.description, host: host, port: port,
            source: .manual)
    }
}

/// Devices added by address, kept in `$XDG_CONFIG_HOME/castdeck/devices.json`
/// (or `~/.config/castdeck/devices.json`).
///
/// A file that cannot be read is never overwritten: loading reports it and saving refuses,
/// so a hand-edited file with a typo loses nothing.
public struct ManualDeviceStore: Sendable {
    public let fileURL: URL

    public init(fileURL: URL) { self.fileURL = fileURL }

    /// The store at the XDG location for this user.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ManualDeviceStore {
        let directory = XDGDirectory.config.path(environment: environment) ?? NSHomeDirectory() + "/.config/castdeck"
        return ManualDeviceStore(fileURL: URL(fileURLWithPath: directory + "/devices.json"))
    }

    private struct File: Codable {
        var version: Int
        var devices: [ManualDevice]
    }

    /// The remembered devices; an absent file is an empty list.
    public func load() throws(DiscoveryError) -> [ManualDevice] {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return [] }
            throw .storeFailure(path: fileURL.path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        do {
            return try JSONDecoder().decode(File.self, from: data).devices
        } catch {
            throw .storeFailure(path: fileURL.path, reason: "it is not a CastDeck device list; fix or remove it")
        }
    }

    /// Writes the list atomically (a temporary file renamed over the old one).
    public func save(_ devices: [ManualDevice]) throws(DiscoveryError) {
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(File(version: 1, devices: devices)).write(to: fileURL, options: .atomic)
        } catch {
            throw .storeFailure(path: fileURL.path, reason: "it cannot be written (\(error.localizedDescription))")
        }
    }
}
