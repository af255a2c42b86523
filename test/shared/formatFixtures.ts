import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The project's own small synthetic recordings, one per format, written from each format's documentation
// (never copied from real files): test/fixtures/formats/. Tests, the e2e spec and the benchmark read them here.
export const FORMAT_DIR = fileURLToPath(new URL('../fixtures/formats/', import.meta.url));

export const FORMAT_FIXTURES = {
  codex: 'codex-rollout.jsonl',
  otlp: 'otlp-file-exporter.jsonl',
  spansJsonl: 'otel-spans.jsonl',
  console: 'otel-console.txt',
  mini: 'slugify.traj.json',
  openhandsText: 'openhands-text-replies.json',
  claudeMeta: 'claude-meta-and-compact.jsonl',
  otlpHookwire: 'otlp-hookwire-decisions.json',
} as const;

export function readFormat(name: string): string {
  return readFileSync(`${FORMAT_DIR}${name}`, 'utf8');
}

export function formatFiles(): string[] {
  return readdirSync(FORMAT_DIR).sort();
}
