// SPDX-License-Identifier: GPL-3.0-or-later
import CastCore
import Logging

/// Decides whether the TLS certificate a device presents is acceptable.
///
/// Cast devices present short-lived self-signed certificates; senders prove a device's
/// identity with the device-auth exchange, not with a CA. `AcceptAnyCertificate` is the
/// permissive policy pychromecast uses; a device-auth policy plugs in here later.
public protocol CertificateVerificationPolicy: Sendable {
    /// Called once per connection after the TLS handshake.
    /// - Parameters:
    ///   - certificateDER: the peer's leaf certificate in DER, or nil when it sent none.
    ///   - device: the address being connected.
    /// - Throws: `CastClientError.certificateRejected` to refuse the device.
    func verify(certificateDER: [UInt8]?, device: DeviceAddress) async throws(CastClientError)
}

/// Accepts every certificate, as pychromecast and catt do.
public struct AcceptAnyCertificate: CertificateVerificationPolicy {
    public init() {}
    public func verify(certificateDER: [UInt8]?, device: DeviceAddress) async throws(CastClientError) {}
}

/// Backoff between reconnect attempts: `initial` doubling up to `maximum`, each delay
/// multiplied by a random factor in `1 - jitter ... 1 + jitter`.
public struct ReconnectPolicy: Sendable, Hashable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// 0 ... 1
    public var jitter: Double
    /// Give up after this many failed attempts (nil = never).
    public var maxAttempts: Int?
    /// Give up once this long has passed since the link dropped (nil = never).
    public var giveUpAfter: Duration?
    /// For this long after the link drops, attempts come at most `eagerDelay` apart: a TV
    /// that restarts or a Wi-Fi link that returns is usually back within a minute, and the
    /// window should follow it within seconds, not after a long backoff.
    public var eagerPeriod: Duration
    public var eagerDelay: Duration
    /// In the eager period, a reconnect attempt whose TCP connect is not answered within this
    /// long is given up (the next one starts `eagerDelay` after it began). On a silent link a
    /// SYN is retransmitted only after 1, 3, 7 s…, so without this limit a link that returned
    /// could wait up to `CastClientConfiguration.connectTimeout` to be tried again.
    public var eagerConnectTimeout: Duration
    public var enabled: Bool

    public init(
        initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), jitter: Double = 0.2,
        maxAttempts: Int? = nil, giveUpAfter: Duration? = .seconds(300),
        eagerPeriod: Duration = .seconds(60), eagerDelay: Duration = .seconds(2),
        eagerConnectTimeout: Duration = .seconds(2), enabled: Bool = true
    ) {
        self.eagerConnectTimeout = eagerConnectTimeout
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maxAttempts = maxAttempts
        self.giveUpAfter = giveUpAfter
        self.eagerPeriod = eagerPeriod
        self.eagerDelay = eagerDelay
        self.enabled = enabled
    }

    /// The delay before attempt `n` when `elapsed` has passed since the link dropped: eager
    /// (capped at `eagerDelay`) in the first `eagerPeriod`, then the doubling backoff.
    public func delay(attempt n: Int, elapsed: Duration, random: Double = Double.random(in: 0..<1)) -> Duration {
        let backoff = delay(attempt: n, random: random)
        guard elapsed < eagerPeriod else { return backoff }
        return min(backoff, eagerDelay)
    }

    public static let disabled = ReconnectPolicy(enabled: false)

    /// The policy with the test hooks of the environment applied (seconds, decimals allowed):
    /// `CASTDECK_RECONNECT_GIVE_UP` replaces `giveUpAfter` and `CASTDECK_RECONNECT_EAGER_PERIOD`
    /// replaces `eagerPeriod`, so a system test can watch a sender give up on a vanished
    /// device in seconds instead of five minutes. Values that are not positive numbers are ignored.
    public func applying(environment: [String: String]) -> ReconnectPolicy {
        var p = self
        func seconds(_ key: String) -> Duration? {
            guard let v = environment[key].flatMap(Double.init), v.isFinite, v > 0 else { return nil }
            return .milliseconds(Int64(v * 1000))
        }
        if let d = seconds("CASTDECK_RECONNECT_GIVE_UP") { p.giveUpAfter = d }
        if let d = seconds("CASTDECK_RECONNECT_EAGER_PERIOD") { p.eagerPeriod = d }
        return p
    }

    /// The delay before attempt `n` (1-based), with jitter from `random` (0 ..< 1).
    public func delay(attempt n: Int, random: Double = Double.random(in: 0..<1)) -> Duration {
        let base = initialDelay.seconds * pow2(max(n - 1, 0))
        let capped = min(base, maximumDelay.seconds)
        let factor = 1 + jitter * (2 * random - 1)
        return .milliseconds(Int64((capped * factor * 1000).rounded()))
    }

    private func pow2(_ n: Int) -> Double { n >= 60 ? .infinity : Double(UInt64(1) << UInt64(n)) }
}

/// Knobs of a connection and session. The defaults follow Chromium's sender.
public struct CastClientConfiguration: Sendable {
    /// How long a request may wait for its reply.
    public var requestTimeout: Duration = .seconds(10)
    /// TCP connect + TLS handshake.
    public var connectTimeout: Duration = .seconds(10)
    /// PING the device this often. Chromium uses 5 s; 3 s lets a silent link (Wi-Fi gone, no
    /// FIN or RST) be noticed within 8 s while costing a device one small frame per 3 s.
    public var heartbeatInterval: Duration = .seconds(3)
    /// Declare the link dead after this long without any message from the device. Chromium
    /// uses 10 s; 8 s still spans two and a half PING/PONG rounds, so a link losing a third of
    /// its packets (TCP retransmits them) is not declared dead, while a silent link is noticed
    /// 5–8 s after it went silent (the PONG to the last PING was heard at most 3 s before).
    public var heartbeatTimeout: Duration = .seconds(8)
    public var reconnect = ReconnectPolicy()
    public var certificatePolicy: any CertificateVerificationPolicy = AcceptAnyCertificate()
    /// The deviceauth challenge after TLS: off, verify and report (default), or require.
    public var deviceAuthentication = DeviceAuthenticationPolicy()
    /// Our endpoint id for app traffic; unique per process by default so several senders can share a device.
    public var senderID: String = "sender-\(Int.random(in: 100_000...999_999))"
    /// Where sessions are remembered for `resume`; nil = do not remember.
    public var sessionStore: SessionStore? = SessionStore.standard
    /// Receives the protocol trace (every message at `trace`, connection events at `debug`).
    public var logger = Logger(label: "castdeck.client")

    public init() {}
}
