// markdown-it 15's build sets every field of its tokens and parser states
// through a generic property-definition helper (what its compiler emits for
// class fields); for a short message that helper was a fifth of the render.
// Tokens and inline states, made once or more per paragraph, are built here
// with plain assignments instead: markdown-it's prototypes (methods,
// `instanceof`), its fields in its order, its push bookkeeping.
// test/unit/render-tokens.test.ts holds them to markdown-it's own.
import type { MarkdownIt, StateInline, Token } from "markdown-it";

type Nesting = -1 | 0 | 1;

/** Gives `md` parser states that make their tokens without markdown-it's field helper. */
export function usePlainTokens(md: MarkdownIt): void {
  const MarkdownItCtor = md.constructor as typeof import("markdown-it").default;

  function PlainToken(this: Token, type: string, tag: string, nesting: Nesting) {
    this.map = null;
    this.level = 0;
    this.children = null;
    this.content = "";
    this.markup = "";
    this.info = "";
    this.block = false;
    this.hidden = false;
    this.type = type;
    this.tag = tag;
    this.attrs = null;
    this.nesting = nesting;
    this.meta = null;
  }
  PlainToken.prototype = MarkdownItCtor.Token.prototype;
  const TokenClass = PlainToken as unknown as typeof Token;

  md.block.State = class extends MarkdownItCtor.StateBlock {
    constructor(...args: ConstructorParameters<typeof MarkdownItCtor.StateBlock>) {
      super(...args);
      this.Token = TokenClass;
    }

    override push(type: string, tag: string, nesting: Nesting): Token {
      const token = new TokenClass(type, tag, nesting);
      token.block = true;
      if (nesting < 0) this.level--;
      token.level = this.level;
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    }
  };

  function PlainStateInline(this: StateInline, src: string, md: MarkdownIt, env: StateInline["env"], outTokens: Token[]) {
    this.pos = 0;
    this.level = 0;
    this.pending = "";
    this.pendingLevel = 0;
    this.cache = {};
    this.backticks = {};
    this.backticksScanned = false;
    this.skipHtmlSpecial = false;
    this.linkLevel = 0;
    this.delimiters = [];
    this._prev_delimiters = [];
    this.Token = TokenClass;
    this.src = src;
    this.env = env;
    this.md = md;
    this.tokens = outTokens;
    this.tokens_meta = Array(outTokens.length);
    this.posMax = src.length;
  }
  const inlineMethods: Pick<StateInline, "pushPending" | "push"> = {
    pushPending(this: StateInline): Token {
      const token = new TokenClass("text", "", 0);
      token.content = this.pending;
      token.level = this.pendingLevel;
      this.tokens.push(token);
      this.pending = "";
      return token;
    },
    push(this: StateInline, type: string, tag: string, nesting: Nesting): Token {
      if (this.pending) this.pushPending();
      const token = new TokenClass(type, tag, nesting);
      let meta: StateInline["tokens_meta"][number];
      if (nesting < 0) {
        this.level--;
        this.delimiters = this._prev_delimiters.pop()!;
      }
      token.level = this.level;
      if (nesting > 0) {
        this.level++;
        this._prev_delimiters.push(this.delimiters);
        this.delimiters = [];
        meta = { delimiters: this.delimiters };
      }
      this.pendingLevel = this.level;
      this.tokens.push(token);
      this.tokens_meta.push(meta);
      return token;
    },
  };
  PlainStateInline.prototype = Object.assign(Object.create(MarkdownItCtor.StateInline.prototype), inlineMethods);
  md.inline.State = PlainStateInline as unknown as typeof StateInline;
}
