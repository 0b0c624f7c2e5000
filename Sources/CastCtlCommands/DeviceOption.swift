// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import CastDiscovery
import Foundation

/// `--device`: which device a subcommand talks to: HOST[:PORT], or a friendly name or id
/// (found through Avahi, or among the devices added by address). The one place that turns
/// the text into an address.
struct DeviceOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The device: HOST[:PORT] (port 8009 when omitted), or a friendly name or id found on the network. Defaults to $CASTCTL_DEVICE.",
            valueName: "NAME|HOST[:PORT]"))
    var device: String?

    /// The text given, or the environment default.
    var text: String? { device ?? ProcessInfo.processInfo.environment["CASTCTL_DEVICE"] }

    func validate() throws {
        // `castctl cast FILE --plan` talks to no device.
        if CommandLine.arguments.contains("--plan") { return }
        guard let text, !text.trimmingWhitespace().isEmpty else {
            throw ValidationError("Say which device to use: --device NAME or HOST[:PORT] (or set CASTCTL_DEVICE).")
        }
    }

    /// Resolves the option to an address and the id under which its session is remembered.
    func resolve() async throws -> ResolvedDevice {
        guard let text else { throw CommandFailure("Say which device to use: --device NAME or HOST[:PORT].") }
        return try await Self.resolve(text)
    }

    /// Resolves a device given as text (`--device`, `move --to`).
    static func resolve(_ text: String) async throws -> ResolvedDevice {
        if DeviceAddress.looksLikeAddress(text) {
            do {
                let address = try DeviceAddress(parsing: text)
                return ResolvedDevice(address: address, id: address.description, name: address.description, byName: false)
            } catch {
                throw CommandFailure(error.description)
            }
        }
        // A friendly name or an id: ask discovery (and the devices added by address).
        do {
            let found = try await CastDiscovery.resolveDevice(text)
            let address = DeviceAddress(host: found.host, port: found.port)
            return ResolvedDevice(address: address, id: text, name: text, byName: true)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}

struct ResolvedDevice: Sendable {
    var address: DeviceAddress
    /// The key for remembered sessions (the discovery id once names resolve).
    var id: String
    /// What messages call the device.
    var name: String
    /// Given by name or id (found through discovery), not as an address.
    var byName: Bool
}
