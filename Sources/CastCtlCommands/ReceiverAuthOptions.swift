// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastReceiver

extension AuthFault: ExpressibleByArgument {}

/// `castctl receiver --auth-ca DIR [--auth-fault KIND]`: answer deviceauth challenges with test
/// credentials (docs/protocol.md §8) instead of AuthError.
struct ReceiverAuthOptions: ParsableArguments {
    @Option(
        name: .customLong("auth-ca"),
        help: ArgumentHelp(
            "Answer device-auth challenges with test credentials kept in DIR (created when missing). Senders trust DIR/root.pem only through CASTDECK_EXTRA_CAST_ROOTS.",
            valueName: "DIR"))
    var authCA: String?

    @Option(
        name: .customLong("auth-fault"),
        help: ArgumentHelp(
            "Fault: answer challenges wrongly (\(AuthFault.allCases.map(\.rawValue).joined(separator: "|"))). Needs --auth-ca.",
            valueName: "kind"))
    var authFault: AuthFault?

    func validate() throws {
        if authFault != nil, authCA == nil { throw ValidationError("--auth-fault needs --auth-ca DIR (without it the receiver always answers AuthError).") }
    }

    /// The deviceauth behaviour to configure, or nil for the default AuthError answers.
    func simulation() throws -> DeviceAuthSimulation? {
        guard let authCA else { return nil }
        do {
            return DeviceAuthSimulation(authority: try AuthAuthority.loadOrCreate(directory: authCA), fault: authFault)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
