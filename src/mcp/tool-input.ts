import type { z } from 'zod';
import type { AnyTool } from './tool.js';

/**
 * A tool's arguments, checked once for every surface and transport (the MCP adapter and the web
 * view's forms): first that all their text is well-formed UTF-16, then the tool's own schema.
 *
 * JSON may carry an unpaired surrogate (`"\ud800"`), and JavaScript strings hold it, but it is
 * no character: it cannot be encoded as UTF-8 (stream names, files, URLs and hashes all need
 * to), and a story map `project_id` holding one answered `internal` (issue 28). Such text is
 * refused before anything runs, naming the field.
 */

type Issue = z.core.$ZodIssue;
type Path = (string | number)[];

const MAX_REPORTED = 5;

/** Where `text` stops being well-formed: the index of its first unpaired surrogate, or -1. */
const firstLoneSurrogate = (text: string): number => {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    else return i;
  }
  return -1;
};

const issue = (path: Path, text: string, key: boolean): Issue => {
  const at = firstLoneSurrogate(text);
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  return {
    code: 'custom',
    path,
    input: text,
    message: `${key ? 'a key is not' : 'not'} well-formed text: a lone surrogate (U+${unit}) at index ${at}; send each character whole (a surrogate pair, or UTF-8)`,
  };
};

/** A value still to look at, and how it was reached (a path is built only for an issue). */
type Visit = { value: unknown; key: string | number | undefined; parent: Visit | undefined };

const pathOf = (visit: Visit | undefined): Path => {
  const path: Path = [];
  for (let v = visit; v?.key !== undefined; v = v.parent) path.push(v.key);
  return path.reverse();
};

/**
 * Every ill-formed string under `value`, values and keys, at most a few. Walks with its own
 * stack, each entry linked to its parent: arguments arrive parsed, and a deep one must neither
 * exhaust the call stack nor cost a copy of its path per level.
 */
export const illFormedText = (value: unknown): Issue[] => {
  const issues: Issue[] = [];
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && issues.length < MAX_REPORTED) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (typeof v === 'string') {
      if (firstLoneSurrogate(v) >= 0) issues.push(issue(pathOf(visit), v, false));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: visit });
    } else if (v !== null && typeof v === 'object') {
      for (const [key, member] of Object.entries(v).reverse()) {
        if (firstLoneSurrogate(key) >= 0) issues.push(issue(pathOf(visit), key, true));
        stack.push({ value: member, key, parent: visit });
      }
    }
  }
  return issues;
};

export type ParsedInput =
  | { success: true; data: z.output<AnyTool['input']> }
  | { success: false; issues: readonly Issue[] };

/** The tool's arguments as it runs them, or why they are refused. */
export const parseToolInput = (tool: AnyTool, args: unknown): ParsedInput => {
  const given = args ?? {};
  const textIssues = illFormedText(given);
  if (textIssues.length > 0) return { success: false, issues: textIssues };
  const parsed = tool.input.safeParse(given);
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, issues: parsed.error.issues };
};
