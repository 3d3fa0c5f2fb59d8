// Compiles a folder of Python to bytecode with the phone's own Python (make web; web/build.py
// runs this): the Pyodide that build/web ships, run by node, so that the .pyc files carry the
// exact magic number and format the phone's Python reads.
//   node web/bytecode.mjs <the site's pyodide folder> <folder to compile>
// Each foo.py becomes foo.pyc beside it (no __pycache__, the source removed): the phone then
// imports without compiling, and without stat-ing sources it does not have. Unchecked-hash
// .pyc files are never compared with a source, which the archive does not hold anyway.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, folder] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.FS.mkdir("/src");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/src");
const compiled = pyodide.runPython(`
import compileall, os, py_compile

ok = compileall.compile_dir("/src", quiet=1, legacy=True, workers=1,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
if not ok:
    raise SystemExit("bytecode: a module did not compile; see above")
count = 0
for top, dirs, files in os.walk("/src"):
    for name in files:
        if name.endswith(".py") and os.path.exists(os.path.join(top, name + "c")):
            os.remove(os.path.join(top, name))
            count += 1
count
`);
console.log(`bytecode: ${compiled} modules compiled by Python ${pyodide.version} (Pyodide)`);
