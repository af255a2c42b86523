// The errors of a recording, in a module of their own so that the file (recordingFile.ts) and its anchor
// (recordingAnchor.ts), which import each other's work, both reach them without an import cycle.

/** A recording that cannot be used: the session it belongs to fails closed with this message. */
export class RecordingError extends Error {}

/**
 * A recording that can be read but must not be used as it is: it lost lines that were answered, or was rewritten
 * below its anchor [K6], or its chain is broken [K4][SV8]. An operator can re-admit it deliberately.
 */
export class IntegrityError extends RecordingError {}
