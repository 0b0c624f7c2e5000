// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// AppModel: the window's state and commands, with no GTK in sight (tested headless).
//
//   DeviceDirectory (CastDiscovery) ──events──▶ AppModel.deviceList ──▶ devices: [DeviceInfo]
//     the one device list: discovered,         (a render cache of the directory, in arrival
//     added by address (persisted, probed),     order; DeviceInfo is a view of CastDevice)
//     the in-process demo receiver
//
//   CastSession (CastClient) ─┬─ state ──▶ connection, "connection lost" notices
//                             └─ media: RemoteMediaClient
//                                  publishes MediaStatusSnapshot values (status + when it came)
//                                  │ statusUpdates() → AppModel.snapshot (stored on the main actor)
//                                  ▼
//   AppModel+Playback, +Ads: mediaStatus, position(at:), adState(at:), tracks … all read from the
//   snapshot, so the window and castctl interpolate with the same rule (MediaStatusSnapshot).
//
//   Commands: one way in, `perform(AppAction)`, for buttons, keys, menus, MPRIS, the mini
//   player and tests. CommandTable.swift holds one `AppCommand` per command (name, label,
//   keys, parameter, enabled rule, action, the sentences for a refusal); `perform` runs the
//   entry only when its rule allows, and a failure becomes a `notice` explained from the
//   command being performed (not from the wire's name for it). The command methods
//   (+Commands, +Queue: play, pause, seek, rate, tracks, style, ad skip, volume, stop, queue)
//   are internal: the table is their only caller.
//
//   Chapters (+Chapters): a CHAPTERS text track is not offered as subtitles; its WebVTT file
//   is read (LocalMedia's WebVTTChapters) into `chapterList`, which the Chapters menu, the seek
//   bar's ticks, next/previous chapter and castctl's `tracks` read alike.
//
//   The device list has one writer, `fold(_:at:)` (+Devices): the directory's events, and
//   the same events folded early where the model must not wait for the directory.
//
// Files: AppModel (state, init), Actions + CommandTable (the command table), +Devices,
// +Session, +Playback, +Live, +Ads (the ad playing now, as every surface shows it), +Artwork
// (each place's image at the display's scale), +Commands, +Chapters, +LocalFiles, +Queue,
// +ThisComputer (what follows from serving media from here: the quit question, the CORS check,
// ended shares), +ForeignApp (an app CastDeck did not start: its name, icon, status, Stop; the
// device's kind: fixed volume, input, audio only), +Group (a speaker group's members, a
// speaker's own volume through a link to it, a speaker that left), +SessionEnd (how a session
// went away, in one sentence, and Resume), +Move (Move to…: playback moved to another device
// with CastClient's StreamTransfer, files shared anew for it, the window then following the
// target), +Mirror (Cast Screen… and Cast Desktop Audio: Mirroring's ScreenMirror on a link of
// its own to the chosen device, so the window goes on controlling its session; `mirroring` for
// the banner, MPRIS and the quit question), Localization
// (tr/ntr and the one time formatter, with gettext injected by the app).
import CastClient
import CastDiscovery
import CastProtocol
import Foundation
import LocalMedia
import Observation

/// Everything the window shows, and the commands it sends. The window keeps no playback
/// state of its own, and neither does this model: `mediaStatus` and `position` read the
/// session's `RemoteMediaClient`, so changes made by other senders appear with the next
/// status message.
@MainActor @Observable
public final class AppModel {
    public enum ConnectionState: Equatable, Sendable {
        case disconnected
        case connecting(deviceID: String)
        case connected(deviceID: String)
        /// The link to the device dropped; CastClient is rejoining. The window freezes the
        /// clock, makes the transport insensitive and offers Disconnect.
        case reconnecting(deviceID: String)
    }

    /// What the player shows for the loaded (or last loaded) media.
    public enum PlaybackPhase: Equatable, Sendable {
        /// Nothing loaded on the device (or not connected).
        case nothing
        case playing, paused, buffering
        /// The media played to its end (IDLE/FINISHED).
        case finished
        /// Stopped by us, another sender or the device (IDLE/CANCELLED or INTERRUPTED).
        case stopped
        /// The receiver could not play it (IDLE/ERROR).
        case failed
    }

    public enum DiscoveryState: Equatable, Sendable {
        case starting
        case browsing
        /// Avahi (avahi-daemon) is not running, so nothing can be found on the network.
        case avahiNotRunning
        /// Searching the network is turned off (CASTDECK_NO_DISCOVERY).
        case off
        /// Browsing failed for another reason (the technical detail).
        case unavailable(reason: String)
    }

    /// The ad playing now, as every surface shows it (CastClient's AdPlayback; AppModel+Ads).
    public typealias AdState = AdPlayback

    public struct BreakMarker: Equatable, Sendable {
        public var position: Double
        public var isWatched: Bool
        public init(position: Double, isWatched: Bool) {
            self.position = position
            self.isWatched = isWatched
        }
    }

    /// A user-readable message for a toast; `serial` grows with every new message.
    public struct Notice: Equatable, Sendable {
        public var serial: Int
        /// One translated sentence a person can act on.
        public var text: String
        /// The technical detail (error text, errno, protocol names), shown behind "Details".
        public var detail: String?
        /// A device the toast offers to connect to again ("Try Again").
        public var retryDeviceID: String?
        /// What the toast's Undo takes back (`AppModel.undo(_:)`).
        public var undo: Undo?
        /// A command the toast offers, by its table label (Resume after a session went away).
        public var offer: AppAction.Name?

        public enum Undo: Equatable, Sendable {
            /// A device forgotten by Forget Device, and where it stood in `deviceList`.
            case forget(ForgottenDevice, position: Int?)
        }
    }

    // MARK: state

    /// The directory's devices as its events arrived (added by address first).
    /// Written only by `fold(_:at:)` (AppModel+Devices.swift).
    public internal(set) var deviceList: [CastDevice] = []
    public internal(set) var discoveryState: DiscoveryState = .starting
    public internal(set) var connection: ConnectionState = .disconnected
    /// The latest media status and when it came, as the session's media client published it
    /// (one immutable value, replaced whole): everything the window shows about playback is
    /// derived from this one value (AppModel+Playback.swift), so a render never mixes two
    /// statuses, and Observation re-renders exactly what reads it. nil without a session.
    public internal(set) var snapshot: MediaStatusSnapshot?
    /// The device's latest receiver status (apps, device volume), likewise published.
    public internal(set) var receiverStatus: ReceiverStatus?
    /// The current media's artwork as a local file for each place that shows it, once resolved
    /// for `displayScale` (AppModel+Artwork.swift).
    public internal(set) var artworkPaths: [ImageUse: String] = [:]
    /// The window's display scale factor (2 on HiDPI): the artwork is chosen and scaled for it.
    public var displayScale = 1 {
        didSet { if displayScale != oldValue { artworkScaleChanged() } }
    }
    /// The playing ad clip's poster as a local file for each place, once resolved (AppModel+Ads).
    public internal(set) var adArtworkPaths: [ImageUse: String] = [:]
    @ObservationIgnored var adArtworkKey: String?
    /// Opens an http(s) link in the desktop's browser (Learn More); nil where there is none.
    @ObservationIgnored public var linkOpener: (@MainActor (String) -> Void)?
    public internal(set) var notice: Notice?
    /// The device restarted (or lost its app) while media played: the media is shown as
    /// Stopped with Play Again until something plays again (AppModel+Session.swift).
    public internal(set) var lostToRestart = false
    /// The title of what played when the link dropped, until the device is back and says
    /// whether that media survived.
    @ObservationIgnored var playingWhenDropped: String?
    /// Whether the connected device proved it is a genuine Cast device (CastClient's verdict).
    public internal(set) var authentication: DeviceAuthentication = .notChecked
    /// What was loaded last, for "Play Again" once it has finished or stopped.
    @ObservationIgnored var lastLoad: LastLoad?
    /// The content position when the link dropped: the clock stands still while reconnecting.
    @ObservationIgnored var frozenPosition: Double?
    /// Files chosen while no device was connected: cast as soon as one is (AppModel+LocalFiles).
    public internal(set) var pendingFiles: [String] = []
    /// The style being edited (previewed locally; Apply sends it).
    public var draftStyle: TextTrackStyle
    /// A move to another device under way (AppModel+Move.swift); nil otherwise.
    public internal(set) var moveProgress: MoveProgress?
    /// Opens the Move to… dialog (AppAction.moveTo); nil where there is no window.
    @ObservationIgnored public var movePrompt: (@MainActor () -> Void)?
    /// A sample media item to offer (set in demo mode).
    public var sampleMedia: MediaInformation?
    /// The receiver's queue as CastClient's model knows it (AppModel+Queue.swift).
    public internal(set) var queue = MediaQueue()
    /// The media's chapters, read from its chapter track (AppModel+Chapters.swift).
    public internal(set) var chapterList = ChapterList()
    @ObservationIgnored var chapterFetch: Task<Void, Never>?

    // MARK: collaborators

    /// The one device list, shared with `castctl discover` through its store on disk.
    public let directory: DeviceDirectory
    /// How sessions connect (timeouts, logger, remembered sessions).
    public let clientConfiguration: CastClientConfiguration
    let artwork: any ArtworkProvider
    let preferences: any StylePreferences
    /// The session with the connected device, nil when disconnected.
    @ObservationIgnored public internal(set) var session: CastSession?
    @ObservationIgnored var sessionTasks: [Task<Void, Never>] = []
    @ObservationIgnored var directoryTask: Task<Void, Never>?
    @ObservationIgnored var artworkKey: String?
    /// Shows the window's file chooser (AppAction.chooseFiles); what is chosen goes to
    /// `castFiles`. Nil where there is no window (headless tests, MPRIS alone).
    @ObservationIgnored public var filePicker: (@MainActor () -> Void)?
    /// Asks for a link to cast (AppAction.chooseLink); what is entered goes to `castLink`.
    @ObservationIgnored public var linkPrompt: (@MainActor () -> Void)?
    /// Opens the preferences (AppAction.showPreferences).
    @ObservationIgnored public var preferencesPrompt: (@MainActor () -> Void)?
    /// Serves files from this computer to the device; started on the first local cast.
    @ObservationIgnored public var mediaShare = MediaShare()
    /// The name of a local file whose conversion has not made its first segment yet
    /// ("Preparing…"); nil otherwise.
    public internal(set) var preparingFile: String?
    /// The local file being cast, and whether a status has shown it on the device yet.
    @ObservationIgnored var localCast: LocalCast?
    @ObservationIgnored var localCastSeen = false
    /// Files served for the queue (AppModel+Queue.swift), and the media session they belong to.
    @ObservationIgnored var queueCasts: [LocalCast] = []
    @ObservationIgnored var queueCastsSession: Int?
    /// The current local cast's embedded cover art, written to disk for display.
    @ObservationIgnored var embeddedArtworkPath: String?
    /// The CORS check of the last load (AppModel+ThisComputer.swift); tests wait for it.
    @ObservationIgnored var corsCheck: Task<Void, Never>?
    /// Where playback stopped (AppModel+Resume.swift): the shared file (nil: nothing is
    /// remembered, as in headless tests that set none), whether the user lets it remember,
    /// the question asked before casting what stopped part-way, and what follows our cast.
    @ObservationIgnored public var playbackMemory: PlaybackMemory? {
        didSet { resumeWriter = playbackMemory.map(ResumeWriter.init) }
    }
    public internal(set) var remembersPositions = true
    /// Devices that get AC-3/E-AC-3 as it is ("Send surround sound as is"; AppModel+Surround.swift).
    public internal(set) var surroundDevices: Set<String> = []
    @ObservationIgnored public var playbackPreferences: any PlaybackPreferences = MemoryPlaybackPreferences() {
        didSet {
            remembersPositions = playbackPreferences.remembersPositions
            surroundDevices = Set(playbackPreferences.surroundDevices)
        }
    }
    @ObservationIgnored public var resumePrompt: (@MainActor (ResumeQuestion) async -> ResumeAnswer)?
    @ObservationIgnored var resumeWriter: ResumeWriter?
    @ObservationIgnored var resumeFollow: ResumeFollow?
    @ObservationIgnored var resumeTick: Task<Void, Never>?
    /// Seconds between writes while something plays (tests shorten it).
    @ObservationIgnored public var resumeInterval: Double = 15
    /// How the last app session went away without us, and where its media stood
    /// (AppModel+SessionEnd.swift); nil once something plays again.
    public internal(set) var sessionEnd: SessionEnd?
    @ObservationIgnored var lastPlayed: LastPlayed?
    /// The media session CastDeck loaded itself last (`followResume`): what Resume may restart.
    @ObservationIgnored var castByUs: Int?
    /// App sessions this model ended or replaced itself (Stop, Cast something else): not told.
    @ObservationIgnored var endedByUs: Set<String> = []
    /// The session's speaker group (members, their volumes), nil when the device is not a group
    /// (AppModel+Group.swift).
    public internal(set) var group: CastGroup?
    /// The speakers of each listed group that was asked (or connected to), by the group's device id.
    public internal(set) var knownGroups: [String: [CastGroupMember]] = [:]
    @ObservationIgnored var groupsAsked: Set<String> = []
    /// Links to the group's speakers, for a speaker's own volume, by multizone id.
    @ObservationIgnored var memberSessions: [String: CastSession] = [:]
    /// Screen or sound mirroring under way (AppModel+Mirror.swift); nil otherwise.
    public internal(set) var mirroring: MirrorState?
    @ObservationIgnored var mirrorTask: Task<Void, Never>?
    @ObservationIgnored var mirrorSerial = 0
    /// The Cast Screen dialog's choices, kept in `mirrorPreferences`.
    public internal(set) var mirrorQuality: ScreenQuality = .balanced
    public internal(set) var mirrorSound = true
    @ObservationIgnored public var mirrorPreferences: any MirrorPreferences = MemoryMirrorPreferences() {
        didSet {
            mirrorQuality = ScreenQuality(rawValue: mirrorPreferences.mirrorQuality) ?? .balanced
            mirrorSound = mirrorPreferences.mirrorSound
        }
    }
    /// Opens the Cast Screen dialog, with this device chosen (nil: the dialog chooses).
    @ObservationIgnored public var mirrorPrompt: (@MainActor (_ deviceID: String?) -> Void)?
    /// Where DISPLAY is read (tests give their own).
    @ObservationIgnored public var mirrorEnvironment = ProcessInfo.processInfo.environment
    /// The running foreign app's icon on disk, through the image cache (AppModel+ForeignApp.swift).
    public internal(set) var foreignAppIconPath: String?
    @ObservationIgnored var foreignIconKey: String?

    /// - Parameters:
    ///   - directory: the device list (CastDiscovery); `start()` starts it.
    ///   - client: the configuration of every session this model opens.
    public init(
        directory: DeviceDirectory, client: CastClientConfiguration = .init(),
        artwork: any ArtworkProvider = LocalArtworkProvider(), preferences: any StylePreferences
    ) {
        self.directory = directory
        self.clientConfiguration = client
        self.artwork = artwork
        self.preferences = preferences
        self.draftStyle = preferences.defaultTextTrackStyle ?? .default
    }

    // MARK: notices

    /// Shows `text` in a toast. The same sentence again while its toast may still be up
    /// replaces it instead of stacking a copy.
    public func post(_ text: String, detail: String? = nil, retry deviceID: String? = nil, undo: Notice.Undo? = nil, offer: AppAction.Name? = nil) {
        notice = Notice(serial: (notice?.serial ?? 0) + 1, text: text, detail: detail, retryDeviceID: deviceID, undo: undo, offer: offer)
    }
}

/// What was loaded last, so "Play Again" can load it again.
enum LastLoad: Sendable {
    /// A link or the sample.
    case media(MediaInformation)
    /// A file from this computer (shared anew: its old tokens ended with the cast).
    case file(String)
}
