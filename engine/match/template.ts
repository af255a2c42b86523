import { compileGetter, parsePath, type Getter, type Scope } from './path.ts';

/** A reason template compiled once [H7]. */
export type Template = (scope: Scope) => string;

export type TemplateCompile = { ok: true; render: Template; paths: string[] } | { ok: false; message: string };

/**
 * Compiles `"Blocked {{payload.tool_name}}"`. Placeholders are paths; missing values render as
 * `<missing path>`, non-strings as JSON. Nothing in a template is executed.
 */
export function compileTemplate(text: string): TemplateCompile {
  const parts: (string | Getter)[] = [];
  const paths: string[] = [];
  const names: string[] = [];
  let rest = text;
  while (rest.length > 0) {
    const open = rest.indexOf('{{');
    if (open < 0) {
      parts.push(rest);
      break;
    }
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) return { ok: false, message: `unclosed "{{" in template "${text}"` };
    if (open > 0) parts.push(rest.slice(0, open));
    const name = rest.slice(open + 2, close).trim();
    const parsed = parsePath(name);
    if (!parsed.ok) return { ok: false, message: `template placeholder {{${name}}}: ${parsed.message}` };
    parts.push(compileGetter(parsed.path));
    paths.push(name);
    names.push(name);
    rest = rest.slice(close + 2);
  }
  if (paths.length === 0) {
    const constant = text;
    return { ok: true, render: () => constant, paths };
  }
  return {
    ok: true,
    paths,
    render: (scope) => {
      let out = '';
      let n = 0;
      for (const part of parts) {
        if (typeof part === 'string') {
          out += part;
          continue;
        }
        const value = part(scope);
        const name = names[n++]!;
        out += value === undefined ? `<missing ${name}>` : typeof value === 'string' ? value : JSON.stringify(value);
      }
      return out;
    },
  };
}
