"""Checks that the help page ParaView shows for each proxy ("?" in the Properties panel) documents
every property a user can set. Usage: check_help_pages.py XML_DIR HELP_DIR"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

xml_dir, help_dir = sys.argv[1:3]
failures = []
proxies = 0
for path in glob.glob(os.path.join(xml_dir, "*.xml")):
    for group in ElementTree.parse(path).getroot().iter("ProxyGroup"):
        for proxy in group:
            proxies += 1
            page = os.path.join(help_dir, "%s.%s.html" % (group.get("name"), proxy.get("name")))
            if not os.path.isfile(page):
                failures.append("no help page %s" % page)
                continue
            rows = re.findall(r"<tr>(.*?)</tr>", open(page).read(), re.S)
            documented = {}
            for row in rows:
                cells = [" ".join(re.sub("<[^>]+>", " ", c).split())
                         for c in re.findall(r"<t[hd][^>/]*>(.*?)</t[hd]>", row, re.S)]
                if cells:
                    documented[cells[0]] = cells[1] if len(cells) > 1 else ""
            for prop in proxy:
                if not prop.tag.endswith("Property") or prop.get("information_only") == "1":
                    continue
                if prop.tag == "Property":  # a button: documented in the proxy's description
                    continue
                label = prop.get("label") or prop.get("name")
                text = documented.get(label, documented.get(prop.get("name")))
                if text is None:
                    failures.append("%s: %s is not on its help page" % (proxy.get("name"), label))
                elif len(text) < 20:
                    failures.append("%s: %s has no description (%r)" % (proxy.get("name"), label, text))
if proxies == 0:
    failures.append("no proxies found in %s" % xml_dir)
for failure in failures:
    print("FAIL:", failure)
print("PASS" if not failures else "FAIL", "(%d proxies)" % proxies)
sys.exit(1 if failures else 0)
