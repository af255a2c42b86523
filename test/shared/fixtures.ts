import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The real recordings live beside the checkout (../shared/fixtures/traces), never inside it; every test,
// benchmark and e2e spec finds them here. HOOKWIRE_FIXTURES may point elsewhere. What needs them skips,
// saying why, when they are absent.
export const FIXTURES_DIR = process.env.HOOKWIRE_FIXTURES
  ? join(process.env.HOOKWIRE_FIXTURES, 'traces')
  : fileURLToPath(new URL('../../../shared/fixtures/traces/', import.meta.url));

export const HAVE_FIXTURES = existsSync(join(FIXTURES_DIR, 'FORMATS.md'));

export const NO_FIXTURES_MESSAGE = `real recordings not found at ${FIXTURES_DIR}: put the shared fixtures beside the checkout or set HOOKWIRE_FIXTURES`;

if (!HAVE_FIXTURES) {
  console.warn(`[trace fixtures] ${FIXTURES_DIR} not found: importer tests on real recordings are skipped. Put the shared fixtures beside the checkout or set HOOKWIRE_FIXTURES.`);
}

/** The fixture files, by short name. */
export const FIXTURE = {
  ccShort: 'claude-code/spotter_short.jsonl',
  ccHeavy: 'claude-code/spotter_tool_heavy.jsonl',
  otelOpenai: 'otel-genai/OPENAI_trace.json',
  otelLangchain: 'otel-genai/LANGCHAIN_trace.json',
  swe: 'swe-agent/pydicom__pydicom-1458.gpt4.traj',
  openhands: 'openhands/basic.json',
} as const;

/** Every recording, as paths under FIXTURES_DIR. */
export const FIXTURE_FILES: readonly string[] = Object.values(FIXTURE);

export function readFixture(rel: string): string {
  return readFileSync(join(FIXTURES_DIR, rel), 'utf8');
}

export function fileName(rel: string): string {
  return rel.split('/').pop() as string;
}
