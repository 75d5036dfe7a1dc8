// Table-driven tests of src/render: Zulip's Markdown dialect, the data a
// render reports, and hostile input. Expected HTML for Zulip-specific markup
// is Zulip's own (its markdown_test_cases fixtures and API docs), except
// where a case says why confab differs.
import { describe, expect, test } from "bun:test";
import {
  emojiByCode,
  emojiByName,
  emojiCodeToNames,
  expandUrlTemplate,
  type Linkifier,
  type RenderContext,
  renderMarkdown,
  textForSearch,
  topicLinks,
} from "../../src/render/index.ts";
import { parseTimeMention } from "../../src/render/time.ts";

const USERS = [
  { id: 12, full_name: "King Hamlet" },
  { id: 13, full_name: "Old Man", is_active: false },
  { id: 14, full_name: 'Evil <img src=x onerror=alert(1)>"' },
];
const GROUPS = [
  { id: 17, name: "support" },
  { id: 18, name: "retired", deactivated: true },
  { id: 19, name: '"><script>alert(1)</script>' },
];
const STREAMS = [
  { id: 3, name: "Verona" },
  { id: 9, name: "announce" },
  { id: 10, name: "a b.c" },
  { id: 11, name: '"<svg onload=alert(1) x="' },
];

function context(overrides: Partial<RenderContext> = {}): RenderContext {
  return {
    realmUrl: "http://zulip.testserver",
    userByName: (name) => USERS.find((u) => u.full_name.toLowerCase() === name.toLowerCase()) ?? null,
    userById: (id) => USERS.find((u) => u.id === id) ?? null,
    groupByName: (name) => GROUPS.find((g) => g.name.toLowerCase() === name.toLowerCase()) ?? null,
    streamByName: (name) => STREAMS.find((s) => s.name === name) ?? null,
    topicLatestMessageId: (streamId, topic) => (streamId === 9 && topic === "Zulip updates" ? 214 : null),
    realmEmoji: (name) =>
      name === "green_tick"
        ? { id: "1", source_url: "/user_avatars/2/emoji/images/1.png", deactivated: false }
        : name === "old_one"
          ? { id: "2", source_url: "/user_avatars/2/emoji/images/2.png", deactivated: true }
          : name === "sneaky"
            ? { id: "3", source_url: '/x.png" onerror="alert(1)', deactivated: false }
            : null,
    linkifiers: [
      { pattern: "#(?P<id>[0-9]{2,8})", url_template: "https://github.com/zulip/zulip/issues/{id}" },
      { pattern: "RFC(?P<num>[0-9]+)", url_template: "https://tools.ietf.org/html/rfc{num}" },
    ],
    ...overrides,
  };
}

const html = (content: string, ctx = context()) => renderMarkdown(content, ctx).html;

const rendered: string[] = [];
/** Renders and remembers the output, so the safety invariant below covers every case in this file. */
function render(content: string, ctx = context()) {
  const result = renderMarkdown(content, ctx);
  rendered.push(result.html);
  return result;
}

function cases(name: string, table: [input: string, expected: string][]) {
  describe(name, () => {
    test.each(table)("%j", (input, expected) => {
      expect(render(input).html).toBe(expected);
    });
  });
}

const span = (code: string, name: string) =>
  `<span aria-label="${name.replace(/_/g, " ")}" class="emoji emoji-${code}" role="img" title="${name.replace(/_/g, " ")}">:${name}:</span>`;

cases("basic Markdown", [
  ["", ""],
  ["test_input", "<p>test_input</p>"],
  ["it's lunch time", "<p>it's lunch time</p>"],
  ["**foo**", "<p><strong>foo</strong></p>"],
  ["*foo*", "<p><em>foo</em></p>"],
  ["A *foo bar* is a *baz quux*", "<p>A <em>foo bar</em> is a <em>baz quux</em></p>"],
  ["const char *x = (char *)y", "<p>const char *x = (char *)y</p>"],
  ["_foo_", "<p>_foo_</p>"],
  ["__foo__", "<p>__foo__</p>"],
  ["I like ~~software~~ hardware", "<p>I like <del>software</del> hardware</p>"],
  ["~~test http://xx.xx link~~", '<p><del>test <a href="http://xx.xx">http://xx.xx</a> link</del></p>'],
  ["test\nbar", "<p>test<br>\nbar</p>"],
  ["*<h1>Hello world</h1>*", "<p><em>&lt;h1&gt;Hello world&lt;/h1&gt;</em></p>"],
  ['say "hi" & <b>bye</b>', '<p>say "hi" &amp; &lt;b&gt;bye&lt;/b&gt;</p>'],
  ["`<&nbsp;>`", "<p><code>&lt;&amp;nbsp;&gt;</code></p>"],
  ["# Hello world", "<h1>Hello world</h1>"],
  ["#Hello world", "<p>#Hello world</p>"],
  ["###### Hello world", "<h6>Hello world</h6>"],
  ["####### Hello world", "<p>####### Hello world</p>"],
  ["Title\n===", "<p>Title<br>\n===</p>"],
  ["x\n\n---", "<p>x</p>\n<hr>"],
  [
    "Some text with a list:\n\n* One item\n* Two items\n* Three items",
    "<p>Some text with a list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n<li>Three items</li>\n</ul>",
  ],
  ["Some text with a hanging list:\n* One item\n* Two items", "<p>Some text with a hanging list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>"],
  ["3. A\n3. B\n3. C\n3. D", '<ol start="3">\n<li>A</li>\n<li>B</li>\n<li>C</li>\n<li>D</li>\n</ol>'],
  [
    "Nested list\n* I am outer list\n  * I am inner nested list first item\n  * I am inner nested list second item",
    "<p>Nested list</p>\n<ul>\n<li>I am outer list\n<ul>\n<li>I am inner nested list first item</li>\n<li>I am inner nested list second item</li>\n</ul>\n</li>\n</ul>",
  ],
  [
    "This is a table:\n\nFirst header  | Second header\n------------- | -------------\nContent cell  | Content cell\nContent cell  | Content cell\n",
    "<p>This is a table:</p>\n<table>\n<thead>\n<tr>\n<th>First header</th>\n<th>Second header</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n</tbody>\n</table>",
  ],
  ["> Hello World!\n\n> Hello Universe!", "<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>"],
  ["<h1>stay normal</h1> thanks", "<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>"],
  // Reference links and the image syntax are not part of Zulip's dialect.
  ["Hello [world]\n\n[world]: https://google.com", '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>'],
  ["![alt](https://example.com/a.txt)", '<p>!<a href="https://example.com/a.txt">alt</a></p>'],
]);

cases("links", [
  ["[hello](https://github.com)", '<p><a href="https://github.com">hello</a></p>'],
  ["[](https://github.com)", '<p><a href="https://github.com">https://github.com</a></p>'],
  ["[  ](https://github.com)", '<p><a href="https://github.com">https://github.com</a></p>'],
  ["[foo](http://zulip.testserver/#narrow/stream/1-Denmark)", '<p><a href="#narrow/stream/1-Denmark">foo</a></p>'],
  ["[foo](http://zulip.testserver/https://example.com)", '<p><a href="http://zulip.testserver/https://example.com">foo</a></p>'],
  ["[call me](tel:+14155551234) [or maybe not](sms:+14155551234)", '<p><a href="tel:+14155551234">call me</a> <a href="sms:+14155551234">or maybe not</a></p>'],
  ["[site](example.com)", '<p><a href="http://example.com">site</a></p>'],
  ["[up](/user_uploads/2/ab/file.pdf)", '<p><a href="/user_uploads/2/ab/file.pdf">up</a></p>'],
  ["**[Static types](https://blog.zulip.com/x)**", '<p><strong><a href="https://blog.zulip.com/x">Static types</a></strong></p>'],
  ["http://www.google.com", '<p><a href="http://www.google.com">http://www.google.com</a></p>'],
  [" some text https://www.google.com/", '<p>some text <a href="https://www.google.com/">https://www.google.com/</a></p>'],
  ["with short example.com url", '<p>with short <a href="http://example.com">example.com</a> url</p>'],
  ["readme.md", "<p>readme.md</p>"],
  ["python class views.py is", "<p>python class views.py is</p>"],
  ["end of sentence https://t.co.", '<p>end of sentence <a href="https://t.co">https://t.co</a>.</p>'],
  [
    "(http://en.wikipedia.org/wiki/Each-way_(bet))",
    '<p>(<a href="http://en.wikipedia.org/wiki/Each-way_(bet)">http://en.wikipedia.org/wiki/Each-way_(bet)</a>)</p>',
  ],
  [
    "http://example.com/something?with,commas,in,url, but not at end",
    '<p><a href="http://example.com/something?with,commas,in,url">http://example.com/something?with,commas,in,url</a>, but not at end</p>',
  ],
  [
    "https://metacpan.org/module/Image::Resize::OpenCV",
    '<p><a href="https://metacpan.org/module/Image::Resize::OpenCV">https://metacpan.org/module/Image::Resize::OpenCV</a></p>',
  ],
  ["http://zulip.testserver/#narrow/stream/1-Denmark", '<p><a href="#narrow/stream/1-Denmark">http://zulip.testserver/#narrow/stream/1-Denmark</a></p>'],
  ["a@b.com", '<p><a href="mailto:a@b.com">a@b.com</a></p>'],
  ["<a@b.com>", '<p>&lt;<a href="mailto:a@b.com">a@b.com</a>&gt;</p>'],
  ["foobarscript://foo.com", "<p>foobarscript://foo.com</p>"],
  ["itms://itunes.com/apps/appname", "<p>itms://itunes.com/apps/appname</p>"],
  ["[foo](itms://itunes.com/apps/appname)", "<p>[foo](itms://itunes.com/apps/appname)</p>"],
  ["1 [](foo://) 3 [](foo://) 5", "<p>1 [](foo://) 3 [](foo://) 5</p>"],
  ["Visit https:smiley://google.com.", `<p>Visit https${span("1f603", "smiley")}//google.com.</p>`],
  ["`http://example.com`", "<p><code>http://example.com</code></p>"],
]);

cases("code blocks", [
  [
    "Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~",
    '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
  ],
  [
    "``` inventedlanguage\ndef speak(self):\n    x = 1\n```",
    '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
  ],
  ["``` py2\nx = 1\n```", '<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code>x = 1\n</code></pre></div>'],
  ["```{.js}\nlet x;\n```", '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code>let x;\n</code></pre></div>'],
  [
    "```tex\n\n\\pi \\textbf{ is not } 3.14\n```",
    '<div class="codehilite" data-code-language="TeX"><pre><span></span><code>\\pi \\textbf{ is not } 3.14\n</code></pre></div>',
  ],
  [
    "& &amp; &amp;amp;\n~~~~\n& &amp; &amp;amp;\n~~~~\n    & &amp; &amp;amp;",
    '<p>&amp; &amp; &amp;amp;</p>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>\n<div class="codehilite"><pre><span></span><code>&amp; &amp;amp; &amp;amp;amp;\n</code></pre></div>',
  ],
  [
    "Hamlet once said\n~~~~\ndef func():\n    x = 1\n\n    y = 2\t\t\n\n    z = 3       \n~~~~\nAnd all was good.",
    '<p>Hamlet once said</p>\n<div class="codehilite"><pre><span></span><code>def func():\n    x = 1\n\n    y = 2\n\n    z = 3\n</code></pre></div>\n<p>And all was good.</p>',
  ],
  ["    def foo(): pass", '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>'],
  ["~~~\n<h1>stay normal</h1>\n~~~", '<div class="codehilite"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>'],
  ['```\nprint("it\'s")\n```', '<div class="codehilite"><pre><span></span><code>print(&quot;it&#39;s&quot;)\n</code></pre></div>'],
  ["~~~\nint x = 3\n* 4;\n~~~", '<div class="codehilite"><pre><span></span><code>int x = 3\n* 4;\n</code></pre></div>'],
  ["```\n```", ""],
  [
    "```\n@**King Hamlet** :poop: #123 https://x.org $$x$$\n```",
    '<div class="codehilite"><pre><span></span><code>@**King Hamlet** :poop: #123 https://x.org $$x$$\n</code></pre></div>',
  ],
]);

cases("quote and spoiler blocks", [
  [
    "Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~",
    "<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>",
  ],
  [
    "Hamlet said:\n~~~ quote\nPolonius said:\n> This above all: to thine ownself be true,\nAnd it must follow, as the night the day,\nThou canst not then be false to any man.\n\nWhat good advice!\n~~~",
    "<p>Hamlet said:</p>\n<blockquote>\n<p>Polonius said:</p>\n<blockquote>\n<p>This above all: to thine ownself be true,<br>\nAnd it must follow, as the night the day,<br>\nThou canst not then be false to any man.</p>\n</blockquote>\n<p>What good advice!</p>\n</blockquote>",
  ],
  [
    "```quote\nText in\nmultiple lines.\n```\n\n> Text in a single line.",
    "<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>\n<blockquote>\n<p>Text in a single line.</p>\n</blockquote>",
  ],
  ["```quote\n# line 1\n#line 2\n```", "<blockquote>\n<h1>line 1</h1>\n<p>#line 2</p>\n</blockquote>"],
  [
    "```quote\nSome text with a hanging list inside quote:\n* one\n* two\n* three\n```",
    "<blockquote>\n<p>Some text with a hanging list inside quote:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n<li>three</li>\n</ul>\n</blockquote>",
  ],
  [
    "```quote\nThey looked at:\n~~~\ncode here\n~~~\nand said\n```\nafter",
    '<blockquote>\n<p>They looked at:</p>\n<div class="codehilite"><pre><span></span><code>code here\n</code></pre></div>\n<p>and said</p>\n</blockquote>\n<p>after</p>',
  ],
  [
    "```spoiler header\ncontent\n```\noutside spoiler\n",
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
  ],
  [
    "```spoiler\ncontent\n```\noutside spoiler\n",
    '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
  ],
  [
    "```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```",
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>',
  ],
  [
    "~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote",
    '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>',
  ],
  [
    // Zulip's fixture uses :smile:; see the emoji section for why :poop: here.
    "```spoiler [Header](https://example.com) :poop:\ncontent\n```",
    `<div class="spoiler-block"><div class="spoiler-header">\n<p><a href="https://example.com">Header</a> ${span("1f4a9", "poop")}</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>`,
  ],
]);

// Emoji names are Zulip's own (src/render/zulip-emoji-names.json): :cat: is 1f408 and :smile: 1f642,
// where emoji-datasource says 1f431 and 1f604.
cases("emoji", [
  [":poop:", `<p>${span("1f4a9", "poop")}</p>`],
  [":airplane:", `<p>${span("2708", "airplane")}</p>`],
  ["**:poop:**", `<p><strong>${span("1f4a9", "poop")}</strong></p>`],
  [":cat:hello:dog::rabbit:", `<p>${span("1f408", "cat")}hello${span("1f415", "dog")}${span("1f407", "rabbit")}</p>`],
  [":cat:\n:dog:", `<p>${span("1f408", "cat")}<br>\n${span("1f415", "dog")}</p>`],
  [":smile: :thumbs_up: :kitten:", `<p>${span("1f642", "smile")} ${span("1f44d", "thumbs_up")} ${span("1f431", "kitten")}</p>`],
  [":not_an_emoji:", "<p>:not_an_emoji:</p>"],
  [":skin-tone-2: :skin-tone-3:", "<p>:skin-tone-2: :skin-tone-3:</p>"],
  ["x::y::z :wasted waste: 10:30:00", "<p>x::y::z :wasted waste: 10:30:00</p>"],
  ["This is :invalidemoji: which should not prevent rendering :+1:", `<p>This is :invalidemoji: which should not prevent rendering ${span("1f44d", "+1")}</p>`],
  ["Testing *:smiley*: :sm*iley*: Testing", "<p>Testing <em>:smiley</em>: :sm<em>iley</em>: Testing</p>"],
  ["\u{1f4a9}", `<p>${span("1f4a9", "poop")}</p>`],
  ["\u{1f4a9}\u{1f4a9}", `<p>${span("1f4a9", "poop")}${span("1f4a9", "poop")}</p>`],
  ["Extra\u{1f47d}Terrestrial", `<p>Extra${span("1f47d", "alien")}Terrestrial</p>`],
  ["Black upward arrow \u2b06\ufe0f", `<p>Black upward arrow ${span("2b06", "up")}</p>`],
  ["\u{1f937}\u200d\u2640\ufe0f", `<p>${span("1f937-200d-2640", "woman_shrugging")}</p>`],
  // Zulip keeps FE0F inside some sequence codes.
  ["\u{1f3cb}\ufe0f\u200d\u2640\ufe0f", `<p>${span("1f3cb-fe0f-200d-2640-fe0f", "woman_lifting_weights")}</p>`],
  ["#\ufe0f\u20e3", `<p>${span("0023-20e3", "hash")}</p>`],
  // Text-presentation characters and unknown sequences stay text.
  ["1 # © ↔", "<p>1 # © ↔</p>"],
  ["thumbs up, medium skin tone: \u{1f44d}\u{1f3fd}", "<p>thumbs up, medium skin tone: \u{1f44d}\u{1f3fd}</p>"],
  ["`\u{1f4a9} :poop:`", "<p><code>\u{1f4a9} :poop:</code></p>"],
  [":green_tick:", '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"></p>'],
  [":old_one:", "<p>:old_one:</p>"],
]);

cases("mentions", [
  ["@**King Hamlet**", '<p><span class="user-mention" data-user-id="12">@King Hamlet</span></p>'],
  ["@**king hamlet**", '<p><span class="user-mention" data-user-id="12">@King Hamlet</span></p>'],
  ["@**King Hamlet|12**", '<p><span class="user-mention" data-user-id="12">@King Hamlet</span></p>'],
  ["@**|12**", '<p><span class="user-mention" data-user-id="12">@King Hamlet</span></p>'],
  // Zulip refuses a name that does not belong to the id.
  ["@**Old Man|12**", "<p>@<strong>Old Man|12</strong></p>"],
  ["@_**King Hamlet**", '<p><span class="user-mention silent" data-user-id="12">King Hamlet</span></p>'],
  ["@**Old Man**", '<p><span class="user-mention silent" data-user-id="13">Old Man</span></p>'],
  ["@**Nobody Here**", "<p>@<strong>Nobody Here</strong></p>"],
  ["email@**King Hamlet**", "<p>email@<strong>King Hamlet</strong></p>"],
  ["(@**King Hamlet**)", '<p>(<span class="user-mention" data-user-id="12">@King Hamlet</span>)</p>'],
  ["@**all**", '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>'],
  ["@**everyone**", '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@everyone</span></p>'],
  ["@**channel**", '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>'],
  ["@**stream**", '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@stream</span></p>'],
  ["@_**all**", '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>'],
  ["@**topic**", '<p><span class="topic-mention">@topic</span></p>'],
  ["@*support*", '<p><span class="user-group-mention" data-user-group-id="17">@support</span></p>'],
  ["@_*Support*", '<p><span class="user-group-mention silent" data-user-group-id="17">support</span></p>'],
  ["@*retired*", '<p><span class="user-group-mention silent" data-user-group-id="18">retired</span></p>'],
  ["@*nope*", "<p>@<em>nope</em></p>"],
  [
    "> @**King Hamlet** @*support* @**all**",
    '<blockquote>\n<p><span class="user-mention silent" data-user-id="12">King Hamlet</span> <span class="user-group-mention silent" data-user-group-id="17">support</span> <span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>',
  ],
  ["`@**King Hamlet**`", "<p><code>@**King Hamlet**</code></p>"],
]);

cases("channel, topic and message links", [
  ["#**Verona**", '<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-Verona">#Verona</a></p>'],
  [
    "#**Verona>hello world**",
    '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/hello.20world">#Verona &gt; hello world</a></p>',
  ],
  [
    "#**announce>Zulip updates**",
    '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-announce/topic/Zulip.20updates/with/214">#announce &gt; Zulip updates</a></p>',
  ],
  [
    "#**announce>Zulip updates@214**",
    '<p><a class="message-link" href="/#narrow/channel/9-announce/topic/Zulip.20updates/near/214">#announce &gt; Zulip updates @ 💬</a></p>',
  ],
  ["#**announce>**", '<p><a class="stream-topic" data-stream-id="9" href="/#narrow/channel/9-announce/topic/">#announce &gt; <em>general chat</em></a></p>'],
  [
    "#**a b.c>x.y (z)%**",
    '<p><a class="stream-topic" data-stream-id="10" href="/#narrow/channel/10-a-b.2Ec/topic/x.2Ey.20.28z.29.25">#a b.c &gt; x.y (z)%</a></p>',
  ],
  ["#**Nowhere**", "<p>#<strong>Nowhere</strong></p>"],
  ["#**Nowhere>topic**", "<p>#<strong>Nowhere&gt;topic</strong></p>"],
]);

cases("global times", [
  ["<time:2024-01-01T10:00:00+01:00>", '<p><time datetime="2024-01-01T09:00:00Z">2024-01-01T10:00:00+01:00</time></p>'],
  ["Let's meet at <time:1496701800>.", '<p>Let\'s meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>'],
  ["<time:2017-12-31>", '<p><time datetime="2017-12-31T00:00:00Z">2017-12-31</time></p>'],
  ["<time:2017-06-05 22:30:00.5Z>", '<p><time datetime="2017-06-05T22:30:00.500000Z">2017-06-05 22:30:00.5Z</time></p>'],
  // Since Zulip 12, text that is not a time stays literal.
  ["<time:<alert(1)>>", "<p>&lt;time:&lt;alert(1)&gt;&gt;</p>"],
  ["<time:2017-02-31>", "<p>&lt;time:2017-02-31&gt;</p>"],
]);

describe("math", () => {
  test("inline TeX is KaTeX HTML+MathML with Zulip's (pre-0.18) class names", () => {
    const out = render("$$1 \\oplus 0 = 1$$").html;
    expect(out).toBe(
      '<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mn>1</mn><mo>⊕</mo><mn>0</mn><mo>=</mo><mn>1</mn></mrow><annotation encoding="application/x-tex">1 \\oplus 0 = 1</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.7278em;vertical-align:-0.0833em;"></span><span class="mord">1</span><span class="mspace" style="margin-right:0.2222em;"></span><span class="mbin">⊕</span><span class="mspace" style="margin-right:0.2222em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span><span class="mord">0</span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">=</span><span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span><span class="mord">1</span></span></span></span></p>',
    );
  });

  test("```math gives one display formula per paragraph", () => {
    const out = render("```math\na^2 = b^2\n\nc\n```").html;
    expect(out).toStartWith(
      '<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">',
    );
    expect(out.match(/<p><span class="katex-display">/g)).toHaveLength(2);
  });

  test.each([
    ["$$\\error{**a**}$$", '<p><span class="tex-error">$$\\error{**a**}$$</span></p>'],
    ["~~~math\n\\error{**a**}\n~~~", '<p><span class="tex-error">\\error{**a**}</span></p>'],
    ["$$x=3\ny=4$$", "<p>$$x=3<br>\ny=4$$</p>"],
    ["$$_$$ is a fun money-related smiley!", "<p>$$_$$ is a fun money-related smiley!</p>"],
    ["We are going to make some $$$ or maybe even $$$$!", "<p>We are going to make some $$$ or maybe even $$$$!</p>"],
    ["$foo is$$", "<p>$foo is$$</p>"],
    ["`$$a$$`", "<p><code>$$a$$</code></p>"],
  ])("%j", (input, expected) => {
    expect(render(input).html).toBe(expected);
  });

  test("dollar amounts around a formula stay text", () => {
    const out = render("Tickets are $5 to $20, we hope for $500 ($$x \\approx 500\\$$$)").html;
    expect(out).toStartWith('<p>Tickets are $5 to $20, we hope for $500 (<span class="katex">');
    expect(out).toEndWith("</span>)</p>");
  });

  test("TeX cannot produce links or scripts", () => {
    const out = render("$$\\href{javascript:alert(1)}{x} \\url{javascript:alert(2)}$$ $$<script>alert(3)</script>$$").html;
    expect(out).not.toMatch(/<a[\s>]/);
    expect(out).not.toContain("<script");
    expect(out).toContain("&lt;script&gt;");
  });
});

describe("image and video previews", () => {
  const img = (url: string, title?: string) =>
    `<div class="message_inline_image"><a href="${url}"${title ? ` title="${title}"` : ""}><img src="${url}"></a></div>`;

  test.each([
    [
      "Google logo today: https://www.google.com/images/srpr/logo4w.png\nKinda boring",
      `<p>Google logo today: <a href="https://www.google.com/images/srpr/logo4w.png">https://www.google.com/images/srpr/logo4w.png</a><br>\nKinda boring</p>\n${img("https://www.google.com/images/srpr/logo4w.png")}`,
    ],
    ["https://www.google.com/images/srpr/logo4w.png", img("https://www.google.com/images/srpr/logo4w.png")],
    [
      "[Google link](https://www.google.com/images/srpr/logo4w.png)",
      `<p><a href="https://www.google.com/images/srpr/logo4w.png">Google link</a></p>\n${img("https://www.google.com/images/srpr/logo4w.png", "Google link")}`,
    ],
    [
      "* Google?\n* Google. https://www.google.com/images/srpr/logo4w.png\n* Google!",
      `<ul>\n<li>Google?</li>\n<li>Google. <a href="https://www.google.com/images/srpr/logo4w.png">https://www.google.com/images/srpr/logo4w.png</a>${img("https://www.google.com/images/srpr/logo4w.png")}</li>\n<li>Google!</li>\n</ul>`,
    ],
    [
      "a https://x.org/1.png b https://x.org/2.gif https://x.org/1.png",
      `<p>a <a href="https://x.org/1.png">https://x.org/1.png</a> b <a href="https://x.org/2.gif">https://x.org/2.gif</a> <a href="https://x.org/1.png">https://x.org/1.png</a></p>\n${img("https://x.org/1.png")}${img("https://x.org/2.gif")}`,
    ],
    [
      ">Google logo today:\n>https://www.google.com/images/srpr/logo4w.png",
      '<blockquote>\n<p>Google logo today:<br>\n<a href="https://www.google.com/images/srpr/logo4w.png">https://www.google.com/images/srpr/logo4w.png</a></p>\n</blockquote>',
    ],
    [
      "```spoiler header\nContent http://example.com/image.png\n```",
      `<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>Content <a href="http://example.com/image.png">http://example.com/image.png</a></p>\n${img("http://example.com/image.png")}</div></div>`,
    ],
    [
      "[clip](/user_uploads/2/ab/clip.mp4)",
      '<p><a href="/user_uploads/2/ab/clip.mp4">clip</a></p>\n<div class="message_inline_image message_inline_video"><a href="/user_uploads/2/ab/clip.mp4" title="clip"><video preload="metadata" src="/user_uploads/2/ab/clip.mp4"></video></a></div>',
    ],
  ])("%j", (input, expected) => {
    expect(render(input).html).toBe(expected);
  });
});

describe("linkifiers", () => {
  test.each([
    ["see #123 please", '<p>see <a href="https://github.com/zulip/zulip/issues/123">#123</a> please</p>'],
    ["RFC2616 and (#42)", '<p><a href="https://tools.ietf.org/html/rfc2616">RFC2616</a> and (<a href="https://github.com/zulip/zulip/issues/42">#42</a>)</p>'],
    // Only at a word start, never running on into a letter, never in code or links.
    ["abc#123 #123abc", "<p>abc#123 #123abc</p>"],
    ["`#123` [issue #123](https://x.org)", '<p><code>#123</code> <a href="https://x.org">issue #123</a></p>'],
    ["https://x.org/#123", '<p><a href="https://x.org/#123">https://x.org/#123</a></p>'],
  ])("%j", (input, expected) => {
    expect(render(input).html).toBe(expected);
  });

  test("an invalid pattern is skipped, not fatal", () => {
    const ctx = context({ linkifiers: [{ pattern: "(unclosed", url_template: "https://x.org/{a}" }, ...context().linkifiers] });
    expect(render("#123", ctx).html).toBe('<p><a href="https://github.com/zulip/zulip/issues/123">#123</a></p>');
  });

  test("RFC 6570 templates", () => {
    expect(expandUrlTemplate("https://x.org/{id}", { id: "a b/c" })).toBe("https://x.org/a%20b%2Fc");
    expect(expandUrlTemplate("https://x.org/{+path}", { path: "a b/c" })).toBe("https://x.org/a%20b/c");
    expect(expandUrlTemplate("https://x.org/search{?q,lang}", { q: "ü&x", lang: "" })).toBe("https://x.org/search?q=%C3%BC%26x&lang=");
    expect(expandUrlTemplate("https://x.org{/a,b}{#frag}", { a: "1", b: "2", frag: "x y" })).toBe("https://x.org/1/2#x%20y");
    expect(expandUrlTemplate("https://x.org/{id:3}{missing}", { id: "12345" })).toBe("https://x.org/123");
  });

  test("topic_links: linkifiers by precedence, then bare URLs, in order of position", () => {
    const linkifiers: Linkifier[] = [
      { pattern: "#(?P<id>[0-9]+)", url_template: "https://trac.example.com/ticket/{id}" },
      { pattern: "ZUL-(?P<id>[0-9]+)", url_template: "https://jira.example.com/ZUL-{id}" },
    ];
    expect(topicLinks("ZUL-42 fixes #7 see example.com/a and https://x.org", linkifiers)).toEqual([
      { url: "https://jira.example.com/ZUL-42", text: "ZUL-42" },
      { url: "https://trac.example.com/ticket/7", text: "#7" },
      { url: "https://example.com/a", text: "example.com/a" },
      { url: "https://x.org", text: "https://x.org" },
    ]);
    expect(topicLinks("plain topic", linkifiers)).toEqual([]);
  });
});

describe("what a render reports", () => {
  test("mentions: flags, silence, groups and both wildcards", () => {
    const r = render("@**King Hamlet** @_**Old Man** @**Old Man** @*support* @_*support* @*retired* @**all** @**topic**");
    expect(r.mentionedUserIds).toEqual([12]);
    expect(r.silentMentionedUserIds).toEqual([13]);
    expect(r.mentionedGroupIds).toEqual([17]);
    expect(r.channelWildcard).toBe(true);
    expect(r.topicWildcard).toBe(true);
  });

  test("silent and quoted mentions notify nobody", () => {
    const r = render("@_**King Hamlet** @_**all** @_**topic**\n\n> @**King Hamlet** @**all** @*support*\n\n```quote\n@**topic**\n```");
    expect(r.mentionedUserIds).toEqual([]);
    expect(r.silentMentionedUserIds).toEqual([12]);
    expect(r.mentionedGroupIds).toEqual([]);
    expect(r.channelWildcard).toBe(false);
    expect(r.topicWildcard).toBe(false);
  });

  test("a user mentioned both ways is mentioned", () => {
    const r = render("@_**King Hamlet** and @**King Hamlet**");
    expect(r.mentionedUserIds).toEqual([12]);
    expect(r.silentMentionedUserIds).toEqual([]);
  });

  test("links, images and attachments", () => {
    const r = render("[doc](/user_uploads/2/ab/doc.pdf) http://zulip.testserver/user_uploads/2/cd/pic.png https://example.com #**Verona** https://example.com");
    expect(r.links).toEqual(["/user_uploads/2/ab/doc.pdf", "user_uploads/2/cd/pic.png", "https://example.com", "/#narrow/channel/3-Verona"]);
    expect(r.attachmentPathIds).toEqual(["2/ab/doc.pdf", "2/cd/pic.png"]);
    expect(r.hasAttachment).toBe(true);
    expect(r.hasImage).toBe(true);
    const plain = render("no links here");
    expect([plain.links, plain.hasImage, plain.hasAttachment, plain.attachmentPathIds]).toEqual([[], false, false, []]);
  });

  test("/me status messages", () => {
    expect(render("/me waves").isMeMessage).toBe(true);
    expect(render("/me waves").html).toBe("<p>/me waves</p>");
    expect(render("/me waves\nand more").isMeMessage).toBe(false);
    expect(render("/mention").isMeMessage).toBe(false);
    expect(render("say /me waves").isMeMessage).toBe(false);
  });
});

describe("hostile input is rendered inert", () => {
  test.each([
    ["<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
    ["<<script>script>evil()<</script>/script>", "<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>"],
    // Zulip would not link this URL (it is not followed by white space); either way it is an ordinary http link.
    ['<script src="http://xx.com/xss.js"<b>', '<p>&lt;script src="<a href="http://xx.com/xss.js">http://xx.com/xss.js</a>"&lt;b&gt;</p>'],
    ["<img src=x onerror=alert(1)>", "<p>&lt;img src=x onerror=alert(1)&gt;</p>"],
    ["<a href=javascript:alert(1)>x</a>", "<p>&lt;a href=javascript:alert(1)&gt;x&lt;/a&gt;</p>"],
    ["[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"],
    ["[x](JaVaScRiPt:alert(1))", "<p>[x](JaVaScRiPt:alert(1))</p>"],
    ["[x](&#106;avascript:alert(1))", "<p>[x](javascript:alert(1))</p>"],
    ["[x](&#x6A;&#x61;vascript:alert(1))", "<p>[x](javascript:alert(1))</p>"],
    ["[x](javascript&colon;alert(1))", "<p>[x](javascript:alert(1))</p>"],
    ["[x](<javascript:alert(1)>)", "<p>[x](&lt;javascript:alert(1)&gt;)</p>"],
    ["[x](vbscript:msgbox(1))", "<p>[x](vbscript:msgbox(1))</p>"],
    ["[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "<p>[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)</p>"],
    ["[x](data:image/png;base64,iVBORw0KGgo=)", "<p>[x](data:image/png;base64,iVBORw0KGgo=)</p>"],
    // Whatever hides the scheme from the parser also hides it from the browser: these are plain http links.
    ["[x](java&#x09;script:alert(1))", '<p><a href="http://java%09script:alert(1)">x</a></p>'],
    ["[x](&#x01;javascript:alert(1))", '<p><a href="http://&amp;#x01;javascript:alert(1)">x</a></p>'],
    ["javascript:alert(1) JAVASCRIPT://x.org vbscript:x data:text/html,x", "<p>javascript:alert(1) JAVASCRIPT://x.org vbscript:x data:text/html,x</p>"],
    ['[x](https://example.com "a\\" onmouseover=\\"alert(1)")', '<p><a href="https://example.com" title="a&quot; onmouseover=&quot;alert(1)">x</a></p>'],
    [
      'https://example.com/a.png"onerror="alert(1)',
      '<p><a href="https://example.com/a.png%22onerror=%22alert(1)">https://example.com/a.png"onerror="alert(1)</a></p>',
    ],
    ['```"><img src=x onerror=alert(1)>\ncode\n```', '<div class="codehilite"><pre><span></span><code>code\n</code></pre></div>'],
    [
      '```python"><img src=x onerror=alert(1)>\ncode\n```',
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>code\n</code></pre></div>',
    ],
    ['~~~ja"va\ncode\n~~~', '<div class="codehilite" data-code-language="ja"><pre><span></span><code>code\n</code></pre></div>'],
    ['@**Evil <img src=x onerror=alert(1)>"**', '<p><span class="user-mention" data-user-id="14">@Evil &lt;img src=x onerror=alert(1)&gt;"</span></p>'],
    ['@*"><script>alert(1)</script>*', '<p><span class="user-group-mention" data-user-group-id="19">@"&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span></p>'],
    [
      '#**"<svg onload=alert(1) x=">"><b onmouseover=alert(1)>**',
      '<p><a class="stream-topic" data-stream-id="11" href="/#narrow/channel/11-.22.3Csvg-onload.3Dalert.281.29-x.3D.22/topic/.22.3E.3Cb.20onmouseover.3Dalert.281.29.3E">#"&lt;svg onload=alert(1) x=" &gt; "&gt;&lt;b onmouseover=alert(1)&gt;</a></p>',
    ],
    [":sneaky:", '<p><img alt=":sneaky:" class="emoji" src="/x.png&quot; onerror=&quot;alert(1)" title="sneaky"></p>'],
    ['<time:"><script>alert(1)</script>>', '<p>&lt;time:"&gt;&lt;script&gt;alert(1)&lt;/script&gt;&gt;</p>'],
  ])("%j", (input, expected) => {
    expect(render(input).html).toBe(expected);
  });

  test("linkifier templates cannot produce script links or break out of the attribute", () => {
    const ctx = context({
      linkifiers: [
        { pattern: "XSS-(?P<id>[0-9]+)", url_template: "javascript:alert({id})" },
        { pattern: "Q-(?P<id>[0-9]+)", url_template: 'https://x.org/{id}" onmouseover="alert(1)' },
        { pattern: "R-(?P<id>[^ ]+)", url_template: "https://x.org/{+id}" },
      ],
    });
    expect(render("XSS-1 Q-2", ctx).html).toBe('<p>XSS-1 <a href="https://x.org/2%22%20onmouseover=%22alert(1)">Q-2</a></p>');
    const out = render('R-"><script>', ctx).html;
    expect(out).not.toContain("<script");
    expect(out).not.toMatch(/href="[^"]*"[^>]*"/);
  });

  test("pathological input renders quickly", () => {
    const inputs = [
      "`".repeat(5000) + "x",
      "@**".repeat(3000),
      "#**a>".repeat(2000),
      "$$".repeat(4000) + "x",
      "*_".repeat(5000),
      ":a".repeat(5000),
      "> ".repeat(500) + "x",
      "* ".repeat(500) + "x",
      "[".repeat(3000) + "](x)",
      "http://x.org/" + "(".repeat(3000),
      "```quote\n".repeat(300),
    ];
    for (const input of inputs) {
      const started = performance.now();
      render(input);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});

describe("emoji lookups", () => {
  test.each([
    ["+1", { emoji_code: "1f44d", emoji_name: "+1", reaction_type: "unicode_emoji" }],
    ["thumbs_up", { emoji_code: "1f44d", emoji_name: "thumbs_up", reaction_type: "unicode_emoji" }],
    ["smile", { emoji_code: "1f642", emoji_name: "smile", reaction_type: "unicode_emoji" }],
    ["thumbsup", null], // emoji-datasource's name, not Zulip's
    ["heart", { emoji_code: "2764", emoji_name: "heart", reaction_type: "unicode_emoji" }],
    ["skin-tone-2", null],
    ["no_such_emoji", null],
  ])("emojiByName(%j)", (name, expected) => {
    expect(emojiByName(name)).toEqual(expected as never);
  });

  test("emojiByCode gives the canonical name; codes have no FE0F", () => {
    expect(emojiByCode("1f4a9")).toEqual({ emoji_code: "1f4a9", emoji_name: "poop", reaction_type: "unicode_emoji" });
    expect(emojiByCode("1F937-200D-2640")?.emoji_code).toBe("1f937-200d-2640");
    expect(emojiByCode("2764-fe0f")).toBeNull();
    expect(emojiByCode("zzzz")).toBeNull();
  });

  test("code_to_names covers names and codes both ways", () => {
    const table = emojiCodeToNames();
    expect(table["1f4a9"]).toEqual(["poop", "pile_of_poo"]);
    expect(Object.keys(table).length).toBeGreaterThan(1800);
    expect(Object.values(table).flat().length).toBeGreaterThan(2800);
    for (const [code, names] of Object.entries(table)) for (const name of names) expect(emojiByName(name)?.emoji_code).toBe(code);
  });
});

describe("time parsing", () => {
  test.each([
    ["2024-01-01T10:00:00+01:00", "2024-01-01T09:00:00.000Z"],
    ["2024-01-01T10:00-0530", "2024-01-01T15:30:00.000Z"],
    ["2024-01-01 10:00", "2024-01-01T10:00:00.000Z"],
    ["1496701800", "2017-06-05T22:30:00.000Z"],
    ["Jun 5th 2017", null],
    ["2024-13-01", null],
    ["", null],
  ])("%j", (input, expected) => {
    expect(parseTimeMention(input)?.toISOString() ?? null).toBe(expected);
  });
});

describe("textForSearch", () => {
  test.each([
    ["Hello **world** & <friends>", "Hello world & <friends>"],
    ["@**King Hamlet** :poop: :green_tick:", "@King Hamlet :poop: :green_tick:"],
    ["line one\nline two\n\n> quoted", "line one\nline two\nquoted"],
    ["$$x^2 + y$$ is math", "x^2 + y is math"],
    ["```spoiler Secret\nhidden text\n```", "Secret\nhidden text"],
    ["```python\nprint('it')\n```", "print('it')"],
  ])("%j", (input, expected) => {
    expect(textForSearch(html(input))).toBe(expected);
  });
});

// Last in the file: checks every HTML string rendered above, hostile or not.
describe("safety invariant", () => {
  test("every output is well-formed tags from a fixed set, with no script vectors", () => {
    const TAGS = new Set(
      (
        "p br strong em del code pre div span a img video ul ol li blockquote h1 h2 h3 h4 h5 h6 hr table thead tbody tr th td time " +
        "math semantics annotation mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mover munder munderover mstyle mtable mtr mtd mpadded menclose mphantom svg path line"
      ).split(" "),
    );
    const TAG_RE = /<\/?([a-z][a-z0-9]*)((?:\s+[a-z][a-z0-9:-]*="[^"<>]*")*)\s*\/?>/y;
    // What the browser will use for a URL: entities decoded once, blanks and controls ignored.
    const browserUrl = (value: string) =>
      value
        .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
        .replace(/&#([0-9]+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
        .replace(
          /&(amp|quot|lt|gt|colon|tab|newline);/gi,
          (_, n: string) => ({ amp: "&", quot: '"', lt: "<", gt: ">", colon: ":", tab: "\t", newline: "\n" })[n.toLowerCase()]!,
        )
        .replace(/[\s\x00-\x1f]/g, "");
    const problems: string[] = [];
    expect(rendered.length).toBeGreaterThan(150);
    for (const out of rendered) {
      for (let at = out.indexOf("<"); at >= 0; at = out.indexOf("<", at + 1)) {
        TAG_RE.lastIndex = at;
        const tag = TAG_RE.exec(out);
        if (!tag) {
          problems.push(`malformed tag at ${at} in ${out}`);
          continue;
        }
        if (!TAGS.has(tag[1]!)) problems.push(`<${tag[1]}> in ${out}`);
        for (const [, name, value] of tag[2]!.matchAll(/([a-z][a-z0-9:-]*)="([^"]*)"/g)) {
          if (name!.startsWith("on")) problems.push(`${name} in ${out}`);
          if ((name === "href" || name === "src") && /^(javascript|vbscript|data):/i.test(browserUrl(value!))) problems.push(`${name}=${value} in ${out}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
