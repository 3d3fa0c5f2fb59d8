// Imports modules in the phone's own Python (the Pyodide of build/web, run by node) with a given
// standard library zip: tests/test_web_stdlib.py runs it with Pyodide's whole zip and with the
// phone build's, and compares.
//   node tests/stdlib_imports.mjs <pyodide folder> <python_stdlib.zip> <the app, unpacked> <modules.json>
// Prints a JSON object: module -> "" where it imported, else the error's last line.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, stdlib, app, list] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
// No input: a module that reads its stdin when imported reads none.
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdLibURL: stdlib, stdin: () => null,
                                   stdout: () => {}, stderr: () => {} });
pyodide.FS.mkdirTree("/home/pyodide/app");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: app }, "/home/pyodide/app");
pyodide.globals.set("modules", JSON.parse(readFileSync(list, "utf8")));
const said = pyodide.runPython(`
import importlib, json, os, sys, traceback
os.chdir("/home/pyodide/app")
sys.path[:0] = ["/home/pyodide/app", "/home/pyodide/app/__pypackages__"]
said = {}
for name in modules:
    try:
        importlib.import_module(name)
        said[name] = ""
    except BaseException as exc:  # SystemExit too: a module that refuses this platform
        said[name] = f"{type(exc).__name__}: {exc}"[:300]
json.dumps(said)
`);
console.log(said);
