// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import Foundation

/// `--device`: which device a subcommand talks to. The one place that turns the text into an
/// address, so that discovery can later accept friendly names and ids here.
struct DeviceOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The device: HOST[:PORT] (port 8009 when omitted). Defaults to $CASTCTL_DEVICE.",
            valueName: "HOST[:PORT]"))
    var device: String?

    /// The text given, or the environment default.
    var text: String? { device ?? ProcessInfo.processInfo.environment["CASTCTL_DEVICE"] }

    func validate() throws {
        guard let text else { throw ValidationError("Say which device to use: --device HOST[:PORT] (or set CASTCTL_DEVICE).") }
        do {
            _ = try DeviceAddress(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Resolves the option to an address and the id under which its session is remembered.
    func resolve() async throws -> ResolvedDevice {
        guard let text else { throw CommandFailure("Say which device to use: --device HOST[:PORT].") }
        do {
            let address = try DeviceAddress(parsing: text)
            return ResolvedDevice(address: address, id: address.description, name: address.description)
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
}
