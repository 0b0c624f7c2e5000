// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CastClient
import CastDiscovery
import Foundation

/// What castctl says of a speaker group: the members line of `status`, the `group` object of
/// `--json`, the lines `watch` prints when members change, and where `--member` is.
struct GroupReport: Encodable, Sendable, Equatable {
    struct Member: Encodable, Sendable, Equatable {
        var id: String
        var name: String
        var capabilities: Int
        var volume: Double?
        var muted: Bool?
    }
    var members: [Member]
    var isMultichannel: Bool

    init(_ group: CastGroup) {
        members = group.members.map { Member(id: $0.id, name: $0.name, capabilities: $0.capabilities, volume: $0.volume, muted: $0.muted) }
        isMultichannel = group.isMultichannel
    }

    /// "Members: Kitchen speaker · 40 %, Hall · 60 % (muted)".
    var line: String {
        let list = members.map { "\($0.name) · \(GroupReport.volumeText($0.volume, $0.muted))" }
        return "Members: " + (list.isEmpty ? "none" : list.joined(separator: ", ")) + (isMultichannel ? " (multichannel)" : "")
    }

    static func volumeText(_ level: Double?, _ muted: Bool?) -> String {
        (level.map { Output.percent($0) } ?? "?") + (muted == true ? " (muted)" : "")
    }

    /// The lines `watch` prints going from `old` to `new` (nil: not a group, or not known yet).
    static func changes(from old: CastGroup?, to new: CastGroup?) -> [String] {
        guard let new else { return old == nil ? [] : ["the device no longer reports a group"] }
        guard let old else { return [GroupReport(new).line] }
        var lines: [String] = []
        for member in new.members {
            guard let before = old.members.first(where: { $0.matches(deviceID: member.id) }) else {
                lines.append("\(member.name) joined the group")
                continue
            }
            if before.volume != member.volume || before.muted != member.muted {
                lines.append("\(member.name): volume \(volumeText(member.volume, member.muted))")
            }
        }
        for gone in old.members where !new.members.contains(where: { $0.matches(deviceID: gone.id) }) {
            lines.append("\(gone.name) left the group")
        }
        return lines
    }
}

/// `--member NAME|ID|HOST:PORT`: one speaker of the group `--device` names.
enum GroupMember {
    /// Where the member is: an address as given, or the member of the group with that name
    /// or id, found on the network by its id (the multizone `deviceId` is the UUID of the
    /// member's mDNS TXT `id`). Returns the member's name (or the address) and its address.
    static func locate(_ text: String, in session: CastSession) async throws -> (name: String, address: DeviceAddress) {
        if DeviceAddress.looksLikeAddress(text) {
            do {
                let address = try DeviceAddress(parsing: text)
                return (address.description, address)
            } catch {
                throw CommandFailure(error.description)
            }
        }
        let group = try await groupStatus(session)
        guard let member = group.member(named: text) else {
            let names = group.members.map(\.name).joined(separator: ", ")
            throw CommandFailure("The group has no member “\(text)”; its members are: \(names.isEmpty ? "none" : names).")
        }
        do {
            let found = try await CastDiscovery.resolveDevice(member.id, timeout: .seconds(3))
            return (member.name, DeviceAddress(host: found.host, port: found.port))
        } catch {
            throw CommandFailure(
                "\(member.name) is in the group but was not found on the network by its id \(member.id) (\(error.description)); give its address instead: --member HOST:PORT."
            )
        }
    }

    /// The group's members, or a failure that says `--device` is no group.
    private static func groupStatus(_ session: CastSession) async throws -> CastGroup {
        let result: Result<CastGroup, CastClientError>
        do {
            result = .success(try await session.requestGroupStatus(timeout: .seconds(3)))
        } catch {
            result = .failure(error)
        }
        switch result {
        case .success(let group): return group
        case .failure(.timeout):
            throw CommandFailure(
                "\(session.device) is not a speaker group (it does not answer on the multizone namespace); --member needs the group as --device.")
        case .failure(let error): throw CommandFailure(error.description)
        }
    }
}
