// SPDX-License-Identifier: GPL-3.0-or-later

import CastProtocol

extension CastSession {
    /// The channel of Cast Streaming's OFFER and ANSWER (`urn:x-cast:com.google.cast.webrtc`)
    /// for a mirroring app. `channel(namespace:)` refuses it as one of Google's reserved
    /// namespaces, which apps must not claim; screen mirroring is that namespace's own use.
    public func streamingChannel() -> CastChannel {
        registeredChannel(CastNamespace.webrtcURN)
    }
}
