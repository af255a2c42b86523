/**
 * What `hookwire ui` hands the app at `/api/open` (engine/node/uiServer.ts serves it, web/io/openFromCli.ts
 * reads it): the pipeline and the traces to open, each with the URL to fetch it from.
 */
export interface OpenManifest {
  pipeline: { name: string; url: string } | null;
  traces: { name: string; url: string; size: number }[];
}
