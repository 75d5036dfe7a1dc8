// markdown-it 15's build sets every field of its tokens and parser states
// through a generic property-definition helper (what its compiler emits for
// class fields); a CPU profile put it at 13 % of a short message's render.
// Tokens and the core, block and inline states are built here with plain
// assignments instead: markdown-it's prototypes (methods, `instanceof`), its
// fields in its order, its push bookkeeping and line splitting.
// test/unit/render-tokens.test.ts holds them to markdown-it's own.
import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from "markdown-it";

type Nesting = -1 | 0 | 1;

/** Gives `md` parser states that are built, and make their tokens, without markdown-it's field helper. */
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

  function PlainStateCore(this: StateCore, src: string, md: MarkdownIt, env: StateCore["env"]) {
    this.tokens = [];
    this.inlineMode = false;
    this.Token = TokenClass;
    this.src = src;
    this.env = env;
    this.md = md;
  }
  PlainStateCore.prototype = MarkdownItCtor.StateCore.prototype;
  md.core.State = PlainStateCore as unknown as typeof StateCore;

  function PlainStateBlock(this: StateBlock, src: string, md: MarkdownIt, env: StateBlock["env"], tokens: Token[]) {
    this.bMarks = [];
    this.eMarks = [];
    this.tShift = [];
    this.sCount = [];
    this.bsCount = [];
    this.blkIndent = 0;
    this.line = 0;
    this.lineMax = 0;
    this.tight = false;
    this.listIndent = -1;
    this.parentType = "root";
    this.level = 0;
    this.Token = TokenClass;
    this.src = src;
    this.md = md;
    this.env = env;
    this.tokens = tokens;
    // Each line: where it starts and ends (before its "\n"), how many spaces and tabs lead it, and the
    // column they reach (a tab stops at the next multiple of 4). Like markdown-it, a last line of only
    // spaces and tabs with no "\n" after it is not a line.
    for (let start = 0; start < src.length; ) {
      let pos = start;
      let column = 0;
      for (; src[pos] === " " || src[pos] === "\t"; pos++) column = src[pos] === "\t" ? column + 4 - (column % 4) : column + 1;
      if (pos === src.length) break;
      const newline = src.indexOf("\n", pos);
      const end = newline < 0 ? src.length : newline;
      this.bMarks.push(start);
      this.eMarks.push(end);
      this.tShift.push(pos - start);
      this.sCount.push(column);
      this.bsCount.push(0);
      start = end + 1;
    }
    // A last, empty line past the end, as markdown-it's rules expect.
    this.bMarks.push(src.length);
    this.eMarks.push(src.length);
    this.tShift.push(0);
    this.sCount.push(0);
    this.bsCount.push(0);
    this.lineMax = this.bMarks.length - 1;
  }
  const blockMethods: Pick<StateBlock, "push"> = {
    push(this: StateBlock, type: string, tag: string, nesting: Nesting): Token {
      const token = new TokenClass(type, tag, nesting);
      token.block = true;
      if (nesting < 0) this.level--;
      token.level = this.level;
      if (nesting > 0) this.level++;
      this.tokens.push(token);
      return token;
    },
  };
  PlainStateBlock.prototype = Object.assign(Object.create(MarkdownItCtor.StateBlock.prototype), blockMethods);
  md.block.State = PlainStateBlock as unknown as typeof StateBlock;

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
