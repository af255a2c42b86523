import { useEffect, useState } from 'react';
import { collectFieldPaths, completionPaths } from '../model/fieldPaths.ts';
import { sampleStoredEvents } from '../persistence/traceSamples.ts';

/** Field paths for completion: from events of stored traces, then the canonical payload shapes. */
export function usePathCompletions(): string[] {
  const [paths, setPaths] = useState<string[]>(() => completionPaths([]));
  useEffect(() => {
    let live = true;
    void sampleStoredEvents().then((events) => {
      if (live && events.length) setPaths(completionPaths(collectFieldPaths(events)));
    });
    return () => {
      live = false;
    };
  }, []);
  return paths;
}
