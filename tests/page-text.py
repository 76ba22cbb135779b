#!/usr/bin/env python3
# page-text.py PAGE.html [SECTION]: what folio-trace report's page shows, as a test reads it.
# With SECTION (an id: verdict, orders, ...): the text of that section's first <pre>, as the
# browser shows it. Without: the ids of the sections, then "svg N" (the inline plots), then
# "fetches N" (attributes that would load something: src, or an href not to an anchor of the
# page or an SVG namespace), then "scripts N".
import sys
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self, want):
        super().__init__(convert_charrefs=True)
        self.want, self.section, self.in_pre, self.done = want, None, False, False
        self.text, self.sections, self.svg, self.fetches, self.scripts = [], [], 0, 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("id")
            self.sections.append(self.section)
        elif tag == "pre" and self.section == self.want and not self.done:
            self.in_pre = True
        elif tag == "svg":
            self.svg += 1
        elif tag == "script":
            self.scripts += 1
        for k, v in attrs:
            if k == "src" or (k.endswith("href") and v and not v.startswith("#")):
                self.fetches += 1

    def handle_endtag(self, tag):
        if tag == "pre" and self.in_pre:
            self.in_pre, self.done = False, True

    def handle_data(self, data):
        if self.in_pre:
            self.text.append(data)


p = Page(sys.argv[2] if len(sys.argv) > 2 else None)
p.feed(open(sys.argv[1], encoding="utf-8").read())
if len(sys.argv) > 2:
    sys.stdout.write("".join(p.text) + "\n")
else:
    print(" ".join(s or "?" for s in p.sections))
    print("svg", p.svg)
    print("fetches", p.fetches)
    print("scripts", p.scripts)
