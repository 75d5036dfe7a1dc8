// The widget a message starts (domain/submessages.ts), as Zulip's server reads /poll and /todo
// (zerver/lib/widget.py), and code playground checks (domain/realm-playgrounds.ts).
import { describe, expect, test } from "bun:test";
import { checkPlayground } from "../../src/domain/realm-playgrounds";
import { widgetOf } from "../../src/domain/submessages";

describe("widgetOf", () => {
  const cases: [string, unknown][] = [
    ["hello", null],
    ["/pollster", null],
    [" /poll Q", null], // the command must come first
    ["/poll", { widget_type: "poll", extra_data: { question: "", options: [] } }],
    ["/poll Lunch?", { widget_type: "poll", extra_data: { question: "Lunch?", options: [] } }],
    ["/poll\nA\nB", { widget_type: "poll", extra_data: { question: "", options: ["A", "B"] } }],
    ["/poll  Best?  \n- one\n  * two\n\n-three\n  ", { widget_type: "poll", extra_data: { question: "Best?", options: ["one", "two", "three"] } }],
    ["/poll Q\r\nA\r\nB", { widget_type: "poll", extra_data: { question: "Q", options: ["A", "B"] } }],
    ["/todo", { widget_type: "todo", extra_data: { task_list_title: "", tasks: [] } }],
    [
      "/todo Launch\nShip it: before noon: sharp\n- Tell people\nx:y",
      {
        widget_type: "todo",
        extra_data: {
          task_list_title: "Launch",
          tasks: [
            { task: "Ship it", desc: "before noon: sharp" },
            { task: "Tell people", desc: "" },
            { task: "x:y", desc: "" },
          ],
        },
      },
    ],
  ];
  for (const [content, expected] of cases) test(JSON.stringify(content), () => expect(widgetOf(content)).toEqual(expected as never));
});

describe("checkPlayground", () => {
  const cases: [string, string, string, string | null][] = [
    ["Python", "Python", "https://python.example.com?code={code}", null],
    ["C#", "c#", "https://dotnet.example.com/{+code}", null],
    ["Python", "Python", "https://python.example.com?code=", '"code" should be the only variable present in the URL template'],
    ["Python", "Python", "https://example.com/{lang}?c={code}", '"code" should be the only variable present in the URL template'],
    ["Python", "Python", "https://example.com/{code", "Invalid URL template."],
    ["Python", "Python", "ftp://example.com/{code}", "Invalid URL template."],
    ["Python", "Py{thon}", "https://example.com/{code}", "Invalid characters in pygments language"],
    ["", "Python", "https://example.com/{code}", "Name cannot be blank"],
  ];
  for (const [name, lang, url, error] of cases) test(`${name} ${lang} ${url}`, () => expect(checkPlayground(name, lang, url)).toBe(error));
});
