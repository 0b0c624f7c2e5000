import AppModel

// The production collaborators: CastClient sessions. CastDiscovery and ImageCache are wired
// here as their branches land (see the report); until then devices come from --demo,
// --device and "Add device by address…", and artwork from local files.

func makeConnector() -> any CastConnector { CastClientConnector() }
func makeBrowser() -> (any DeviceBrowser)? { nil }
func makeArtworkProvider() -> any ArtworkProvider { LocalArtworkProvider() }
