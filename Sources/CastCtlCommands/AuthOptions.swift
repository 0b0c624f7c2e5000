// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import CastClient
import Foundation

/// Device authentication for the device subcommands: `--require-auth` / `CASTCTL_REQUIRE_AUTH=1`
/// refuse a device that does not prove it is a genuine Cast device; `CASTDECK_EXTRA_CAST_ROOTS`
/// adds roots to trust (for the simulator's test CA).
struct AuthOptions: ParsableArguments {
    @Flag(name: .customLong("require-auth"), help: "Refuse a device that does not pass Cast device authentication (also CASTCTL_REQUIRE_AUTH=1).")
    var requireAuth = false

    /// `--require-auth` or `CASTCTL_REQUIRE_AUTH` set to 1/true/yes.
    var required: Bool {
        if requireAuth { return true }
        switch getenv("CASTCTL_REQUIRE_AUTH").map({ String(cString: $0).lowercased() }) {
        case "1", "true", "yes": return true
        default: return false
        }
    }

    /// Sets the policy; an unusable CASTDECK_EXTRA_CAST_ROOTS file is a failure (exit 1), not a silent fallback.
    func apply(to configuration: inout CastClientConfiguration, timeout: Double) throws {
        // Without extra roots the connection takes the shipped ones itself, parsed while the
        // handshake is under way; extra roots are read here, so a bad file fails before connecting.
        if CastTrustStore.extraRootsFile() != nil {
            do {
                configuration.deviceAuthentication.trustStore = try CastTrustStore.standard()
            } catch {
                throw CommandFailure("\(error.description) (\(CastTrustStore.extraRootsVariable))")
            }
        }
        configuration.deviceAuthentication.mode = required ? .require : .verify
        configuration.deviceAuthentication.timeout = .milliseconds(Int64(min(timeout, 5) * 1000))
    }
}

/// `"authentication"` in `castctl status --json` and the other status reports.
struct AuthenticationReport: Encodable {
    var verified: Bool
    /// A stable code ("no-answer", "auth-error", "chain", "signature", "expired", "nonce", …); null when verified.
    var reason: String?
    /// The device certificate's common name; null unless verified.
    var commonName: String?
    /// The reason in words; null when verified.
    var detail: String?

    init(_ a: DeviceAuthentication) {
        verified = a.isVerified
        reason = a.reasonCode
        commonName = a.commonName
        detail = a.reason
    }

    private enum CodingKeys: String, CodingKey { case verified, reason, commonName, detail }

    /// Absent values are written as null: scripts can rely on every key being there.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(verified, forKey: .verified)
        try c.encode(reason, forKey: .reason)
        try c.encode(commonName, forKey: .commonName)
        try c.encode(detail, forKey: .detail)
    }

    /// "Verified device (CN)" or "Unverified device: reason".
    var text: String {
        verified ? "Verified device (\(commonName ?? "no common name"))" : "Unverified device: \(detail ?? reason ?? "unknown")"
    }
}
