// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// urn:x-cast:com.google.cast.tp.deviceauth on the receiver side (docs/protocol.md §8).
import CastProtocol
import Foundation

extension ReceiverCore {
    /// Answers a challenge: AuthError when the simulator has no credentials (the default),
    /// otherwise a signed AuthResponse, spoiled as the configured fault says.
    func handleDeviceAuth(_ message: CastMessage, from c: SenderConnection) {
        loop.assertInEventLoop()
        let sender = message.sourceID
        func answer(_ payload: [UInt8]) {
            send(CastMessage(sourceID: CastEndpoint.receiver, destinationID: sender, namespace: message.namespace, payload: .binary(payload)), to: c)
        }
        guard let simulation = config.deviceAuth else {
            // No credentials, as docs/protocol.md §8 suggests for a simulator: INTERNAL_ERROR.
            answer(DeviceAuthWire.error(.internalError))
            return
        }
        guard case .binary(let bytes) = message.payload, let request = try? DeviceAuthWire.decode(bytes), request.hasChallenge else {
            answer(DeviceAuthWire.error(.internalError))
            return
        }
        let challenge = request.challenge
        if challenge.hasSignatureAlgorithm, challenge.signatureAlgorithm == .rsassaPss {
            answer(DeviceAuthWire.error(.signatureAlgorithmUnavailable))
            return
        }
        let fault = simulation.fault
        switch fault {
        case .silent?:
            config.logger.info("fault: not answering the deviceauth challenge", metadata: ["cast.connection": "\(c.id)"])
            return
        case .error?:
            answer(DeviceAuthWire.error(.internalError))
            return
        default:
            break
        }
        let authority = simulation.authority
        let nonce = [UInt8](challenge.senderNonce)
        let echoed = fault == .wrongNonce ? (0..<DeviceAuthWire.nonceLength).map { _ in UInt8.random(in: 0...255) } : nonce
        let chain =
            switch fault {
            case .expired?: authority.expiredChain
            case .untrustedRoot?: authority.untrustedChain
            default: authority.chain
            }
        let sha256 = challenge.hashAlgorithm == .sha256
        var signature: [UInt8]
        do {
            signature = try authority.sign(echoed + tlsCertificateDER, sha256: sha256)
        } catch {
            config.logger.error("could not sign the deviceauth answer", metadata: ["error": "\(error)"])
            answer(DeviceAuthWire.error(.internalError))
            return
        }
        if fault == .badSignature, !signature.isEmpty { signature[signature.count - 1] ^= 0xFF }
        var response = ProtoAuthResponse()
        response.signature = Data(signature)
        response.clientAuthCertificate = Data(chain[0])
        response.intermediateCertificate = chain.dropFirst().map { Data($0) }
        response.signatureAlgorithm = .rsassaPkcs1V15
        response.hashAlgorithm = sha256 ? .sha256 : .sha1
        if challenge.hasSenderNonce || fault == .wrongNonce { response.senderNonce = Data(echoed) }
        var reply = ProtoDeviceAuthMessage()
        reply.response = response
        answer(DeviceAuthWire.encode(reply))
    }
}
