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

  it('the OS of a browser or a Node platform', () => {
    expect(placeOs('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)')).toBe('macos');
    expect(placeOs('darwin')).toBe('macos');
    expect(placeOs('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(placeOs('win32')).toBe('windows');
    expect(placeOs('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
  });
});
