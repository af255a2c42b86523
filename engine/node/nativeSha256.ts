// Node's own SHA-256 for the hash chain [K1]: the same digest as the portable one in engine/trace/hashChain.ts,
// computed natively. Installed by the commands that chain or check many lines (serve, the CLI's trace commands);
// a hook call, which chains one line, keeps the portable hash and does not load node:crypto.
import { hash } from 'node:crypto';
import { useSha256 } from '../trace/hashChain.ts';

/**
 * Hex SHA-256 of the text's UTF-8 bytes, by node:crypto's one-shot `hash` (Node 20.12+; package.json asks for
 * 20.19): no Hash object per line, ~2 µs against createHash's ~5 µs for a recording line (serve chains one per event).
 */
export const nativeSha256Hex = (text: string): string => hash('sha256', text, 'hex');

/** Makes the hash chain use node:crypto from now on in this process. */
export function useNativeSha256(): void {
  useSha256(nativeSha256Hex);
}
