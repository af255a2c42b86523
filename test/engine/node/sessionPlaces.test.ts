import { describe, expect, it } from 'vitest';
import { placeOs, SESSION_PLACES } from '../../../engine/trace/sessionPlaces.ts';
import { sessionLocations } from '../../../engine/node/sessionLocations.ts';

// #29: the app's table of session places (engine/trace/sessionPlaces.ts) and what `hookwire sessions` looks in
// (engine/node/sessionLocations.ts) name the same agents and the same folders.
describe('session places: the app\'s table and hookwire sessions agree', () => {
  it('the same agents, and each folder hookwire sessions walks is where the table says the files are (Linux and macOS)', () => {
    for (const [platform, os] of [['linux', 'linux'], ['darwin', 'macos']] as const) {
      const locations = sessionLocations({ HOME: '/h' }, platform, '/p');
      expect(locations.map((l) => l.agent).sort()).toEqual(SESSION_PLACES.map((p) => p.agent).sort());
      for (const l of locations) {
        const place = SESSION_PLACES.find((p) => p.agent === l.agent)!;
        const shown = place[os].replace(/^~/, '/h').replace(/^<project>/, '/p');
        expect(shown.startsWith(`${l.root}/`), `${l.agent}: ${shown} under ${l.root}`).toBe(true);
      }
    }
  });

  it('[I12][I19] Gemini CLI\'s GEMINI_CLI_HOME and Qwen Code\'s QWEN_RUNTIME_DIR / QWEN_HOME move their session folders, as the agents do', () => {
    // google-gemini/gemini-cli packages/core/src/utils/paths.ts homedir() (GEMINI_CLI_HOME, else os.homedir()) and
    // config/storage.ts getProjectTempDir (<home>/.gemini/tmp/<project>), commit 5411f113; QwenLM/qwen-code
    // packages/core/src/config/storage.ts getRuntimeBaseDir (QWEN_RUNTIME_DIR > QWEN_HOME > ~/.qwen) + projects/.
    const root = (env: NodeJS.ProcessEnv, agent: string) => sessionLocations(env, 'linux', '/p').find((l) => l.agent === agent)!.root;
    expect(root({ HOME: '/h' }, 'gemini-cli')).toBe('/h/.gemini/tmp');
    expect(root({ HOME: '/h', GEMINI_CLI_HOME: '/g' }, 'gemini-cli')).toBe('/g/.gemini/tmp');
    expect(root({ HOME: '/h' }, 'qwen-code')).toBe('/h/.qwen/projects');
    expect(root({ HOME: '/h', QWEN_HOME: '/q' }, 'qwen-code')).toBe('/q/projects');
    expect(root({ HOME: '/h', QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '/r' }, 'qwen-code')).toBe('/r/projects');
  });

  it('the OS of a browser or a Node platform', () => {
    expect(placeOs('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)')).toBe('macos');
    expect(placeOs('darwin')).toBe('macos');
    expect(placeOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(placeOs('win32')).toBe('windows');
    expect(placeOs('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
  });
});
