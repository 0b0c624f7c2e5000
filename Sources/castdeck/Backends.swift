import AppModel

// The production collaborators. CastClient, CastDiscovery and ImageCache are wired here as
// their branches land; until then a connection attempt says what is missing.

struct MissingClient: Error, CustomStringConvertible {
    var description: String { "This build has no Cast client (CastClient is not merged yet)." }
}

struct UnavailableConnector: CastConnector {
    func connect(to device: DeviceInfo) async throws -> any CastSessionHandle { throw MissingClient() }
}

func makeConnector() -> any CastConnector { UnavailableConnector() }
func makeBrowser() -> (any DeviceBrowser)? { nil }
func makeArtworkProvider() -> any ArtworkProvider { LocalArtworkProvider() }
