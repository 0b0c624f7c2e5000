// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

/// What a running receiver tells the network about itself (the `_googlecast._tcp`
/// record fields, docs/protocol.md §16).
public struct ReceiverAnnouncement: Sendable, Hashable {
    public var friendlyName: String
    /// 32 hex digits without dashes, as the TXT `id` wants it.
    public var uuid: String
    public var model: String
    public var host: String
    public var port: Int
    /// The `ca` bits of the device kind (ReceiverKind.capabilities); nil: a Chromecast's.
    public var capabilities: Int?

    public init(friendlyName: String, uuid: String, model: String, host: String, port: Int, capabilities: Int? = nil) {
        self.friendlyName = friendlyName
        self.uuid = uuid
        self.model = model
        self.host = host
        self.port = port
        self.capabilities = capabilities
    }
}

/// The seam for `castctl receiver --announce`: publishes a running receiver over mDNS.
/// CastReceiver itself does not announce; the discovery module provides a conformance and
/// `castctl` passes it in. `announce` returns once the record is published (or throws);
/// `withdraw` removes it when the receiver stops.
public protocol ReceiverAnnouncer: Sendable {
    func announce(_ announcement: ReceiverAnnouncement) async throws
    func withdraw() async
}
