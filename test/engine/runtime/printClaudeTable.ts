// Prints docs/claude-code.md's Claude Code table (see claudeTable.ts): `npx tsx test/engine/runtime/printClaudeTable.ts`.
import { claudeTable } from './claudeTable.ts';

console.log(claudeTable());
