import { shippedText } from '../shipped.js';
import type { AnyTool, ResourceDefinition } from '../tool.js';
import {
  buildOrderCardOf,
  progressCardOf,
  readinessCardOf,
  storyCardOf,
  withCard,
  type Card,
} from './card-model.js';

export * from './card-model.js';

/**
 * The cards MCP Apps hosts (Claude.ai, Claude Desktop) render beside the story map's results:
 * one self-contained HTML resource (`web/card.html`: no CDN, no network) that draws a story,
 * progress or build-order card from the tool result's `structuredContent.result.card`. A
 * card-bearing tool names it in its `_meta.ui.resourceUri` (and the older flat
 * `ui/resourceUri` key, which hosts still read); its result carries everything the card shows,
 * so a host without MCP Apps loses nothing.
 */
export const CARD_URI = 'ui://intentlog/card.html';
/** The MIME type MCP Apps gives an HTML view (SEP-1865). */
export const CARD_MIME = 'text/html;profile=mcp-app';

export type CardKind = 'story' | 'progress' | 'build_order';

/** The `_meta` of a tool that renders a card. */
export const cardMeta = (kind: CardKind): Record<string, unknown> => ({
  ui: { resourceUri: CARD_URI },
  'ui/resourceUri': CARD_URI,
  'intentlog/card': kind,
});

type CardOf = (result: unknown, projectId: string | null) => Card;

const underStoryId: CardOf = (r) =>
  storyCardOf({ ...(r as object), id: (r as { story_id?: unknown }).story_id });

/** The hosted tools that render a card, and how each draws it from its own result. */
const CARDS: Record<string, { kind: CardKind; of: CardOf }> = {
  get_story: { kind: 'story', of: storyCardOf },
  // start_story and complete_story answer the story under `story_id`; the rest is get_story's
  start_story: { kind: 'story', of: underStoryId },
  complete_story: { kind: 'story', of: underStoryId },
  get_status: { kind: 'progress', of: progressCardOf },
  check_release_readiness: { kind: 'progress', of: readinessCardOf },
  get_build_order: { kind: 'build_order', of: buildOrderCardOf },
};

/**
 * A tool that renders `kind`: its `_meta` names the card, its result gains `card`. A result the
 * card cannot be drawn from (a shape this card does not know yet) is answered without one, and
 * logged: the card is a view of the answer, never a reason to refuse it.
 */
export const cardTool = (tool: AnyTool, kind: CardKind, of: CardOf): AnyTool => ({
  ...tool,
  meta: { ...tool.meta, ...cardMeta(kind) },
  async run(args, ctx) {
    const answer = await tool.run(args, ctx);
    const result = answer.result as object;
    let card: Card;
    try {
      card = of(result, answer.project_id ?? null);
    } catch (error) {
      ctx.log.warn({ tool: tool.name, err: error }, 'no card drawn from this result');
      return answer;
    }
    return { ...answer, result: withCard(result, card) };
  },
});

/** The surface's tools, the card-bearing ones decorated (the rest as they are). */
export const withCards = (tools: readonly AnyTool[]): AnyTool[] =>
  tools.map((t) => {
    const card = CARDS[t.name];
    return card ? cardTool(t, card.kind, card.of) : t;
  });

/** The one card resource; the HTML picks the card from the result it is given. */
export const cardResource: ResourceDefinition = {
  name: 'card',
  uri: CARD_URI,
  title: 'Story map card',
  description:
    'The story, progress and build-order cards MCP Apps hosts render beside get_story, start_story, complete_story, get_status, check_release_readiness and get_build_order (self-contained HTML).',
  mimeType: CARD_MIME,
  read: async () => shippedText('web/card.html'),
};
