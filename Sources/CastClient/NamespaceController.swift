// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// How a message finds its handler. A connection keeps one routing table, namespace →
// controller. The link itself answers its own namespaces (heartbeat, device authentication,
// the virtual-connection bookkeeping of the connection namespace); everything above the link
// is a `NamespaceController`: the session (receiver and connection namespaces), the media
// client (media), each custom channel (its namespace), and the group controller (multizone).
import CastCore
import CastProtocol

/// A handler of one or more namespaces on a link.
///
/// Every controller of a session runs on the session's event loop (its executor is the loop,
/// the same one the connection reads on), so the connection calls it synchronously with
/// `assumeIsolated`: a message is applied before the next frame is read, and before the request
/// it answers resumes its caller.
protocol NamespaceController: Actor {
    /// The namespaces this controller answers for.
    nonisolated var namespaces: [String] { get }
    /// One message on one of its namespaces, in arrival order.
    func receive(_ message: InboundMessage, from link: CastConnection)
    /// The link ended (closed by us, by the device, or lost). Called once per attached link.
    func linkEnded(_ reason: DisconnectReason, link: CastConnection)
}

/// A message read from the device: the envelope and its decoded payload (or why it could not be decoded).
public struct InboundMessage: Sendable {
    public var raw: CastMessage
    public var decoded: Result<NamespacedMessage, CastProtocolError>
}
