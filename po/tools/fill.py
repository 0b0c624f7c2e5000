#!/usr/bin/env python3
"""Writes LANG.po from castdeck.pot and a table of translations (tools/LANG.tsv-like python dict).

Used once to create the translations; afterwards translators edit the .po files directly and
po/update-pot.sh merges new strings in. Fails if a message has no translation.
"""
import re, sys, importlib.util

def parse_pot(path):
    entries, cur, key = [], None, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            if cur is None or "msgid" in cur:
                if cur is not None and "msgid" in cur: entries.append(cur)
                cur = {"comments": []}
            cur["comments"].append(line)
            continue
        m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
        if m:
            if cur is None: cur = {"comments": []}
            if m.group(1) == "msgid" and "msgid" in cur:
                entries.append(cur); cur = {"comments": []}
            key = m.group(1); cur[key] = m.group(2); continue
        m = re.match(r'^"(.*)"$', line)
        if m and key: cur[key] += m.group(1); continue
        if not line.strip() and cur is not None and "msgid" in cur:
            entries.append(cur); cur = None; key = None
    if cur is not None and "msgid" in cur: entries.append(cur)
    return entries

def unescape(s): return s.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
def escape(s): return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")

lang, table_file = sys.argv[1], sys.argv[2]
spec = importlib.util.spec_from_file_location("t", table_file); t = importlib.util.module_from_spec(spec); spec.loader.exec_module(t)
out = []
missing = []
for e in parse_pot("castdeck.pot"):
    mid = e["msgid"]
    if mid == "":
        hdr = (f"Project-Id-Version: castdeck\\nReport-Msgid-Bugs-To: \\nLanguage-Team: {t.TEAM}\\n"
               f"PO-Revision-Date: 2026-11-22 00:40+0000\\nLast-Translator: CastDeck developers\\nLanguage: {lang}\\nMIME-Version: 1.0\\nContent-Type: text/plain; charset=UTF-8\\n"
               f"Content-Transfer-Encoding: 8bit\\nPlural-Forms: {t.PLURAL}\\n")
        out.append(f"# {t.TITLE}\n# This file is distributed under the same license as the castdeck package.\nmsgid \"\"\nmsgstr \"{hdr}\"\n")
        continue
    comments = "\n".join(c for c in e["comments"] if c.startswith("#:") or c.startswith("#."))
    text = unescape(mid)
    tr = t.T.get(text)
    if tr is None: missing.append(text); continue
    if "msgid_plural" in e:
        forms = tr if isinstance(tr, list) else [tr]
        body = f'msgid "{mid}"\nmsgid_plural "{e["msgid_plural"]}"\n' + "".join(
            f'msgstr[{i}] "{escape(f)}"\n' for i, f in enumerate(forms))
    else:
        body = f'msgid "{mid}"\nmsgstr "{escape(tr)}"\n'
    out.append((comments + "\n" if comments else "") + body)
if missing:
    print("missing translations:", *missing, sep="\n  "); sys.exit(1)
open(f"{lang}.po", "w", encoding="utf-8").write("\n".join(out))
