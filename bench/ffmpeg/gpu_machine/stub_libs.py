#!/usr/bin/env python3
"""Stub shared libraries for carrying FFmpeg's libraries to a machine that lacks them.

    stub_libs.py LIBDIR OUTDIR KEEP[,KEEP...] [IMPORTER...]

LIBDIR holds the real libraries; KEEP names those carried as they are (libav*, libsw*, ...); IMPORTER
are further programs whose imports count. Every other library a kept one or an importer needs becomes a
stub in OUTDIR: same soname, the symbols and symbol versions imported from it (objects with their size),
each function trapping when called. The exceptions answer as the real library would for a file that is
not theirs: format probes say "not this format", version/capability queries return 0 (FFmpeg calls
these when it lists its codecs). An H.264-in-MP4 decode calls nothing else in them; a stub that is called
traps (SIGILL) rather than returning something wrong.
"""
import collections
import os
import re
import subprocess
import sys

PROBE_ZERO = re.compile(r'(_version|_get_caps|_codec_\w+_[cd]x|^openmpt_probe_file_header\w*|^x265_api_get_\d+)$')
SYSTEM = ('libc.so', 'libm.so', 'libstdc++', 'libgcc_s', 'ld-linux')


def dynsyms(path):
    out = subprocess.run(['readelf', '--dyn-syms', '-W', path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0].endswith(':') and f[1] != 'Value':
            yield f[2], f[3], f[6], f[7]  # size type ndx name


def needed(path):
    out = subprocess.run(['readelf', '-d', path], capture_output=True, text=True, check=True).stdout
    return re.findall(r'Shared library: \[(.*)\]', out)


def main(libdir, outdir, keep, importers):
    importers = [os.path.join(libdir, k) for k in keep] + importers
    stubs = {n for imp in importers for n in needed(imp) if n not in keep and not n.startswith(SYSTEM)}
    wanted = {}  # symbol -> version an importer asks for (None: unversioned)
    for imp in importers:
        for _, _, ndx, name in dynsyms(imp):
            if ndx == 'UND' and name:
                m = re.match(r'([^@]+)@+(\S+?)(?: \(\d+\))?$', name)
                wanted[m.group(1) if m else name] = m.group(2) if m else None
    os.makedirs(outdir, exist_ok=True)
    for lib in sorted(stubs):
        defined = {}
        for size, typ, ndx, name in dynsyms(os.path.join(libdir, lib)):
            if ndx != 'UND' and name:
                defined.setdefault(re.sub(r'@.*', '', name), (typ, int(size, 0)))
        code, versions = ['/* stub: see stub_libs.py */'], collections.defaultdict(set)
        for sym, ver in wanted.items():
            if sym not in defined:
                continue
            typ, size = defined[sym]
            if typ not in ('FUNC', 'IFUNC'):
                code.append(f'char {sym}[{max(size, 8)}] __attribute__((aligned(16)));')
            elif sym == 'gme_identify_header':  # libgme: "" for a header it does not know
                code.append(f'const char* {sym}(void) {{ return ""; }}')
            elif PROBE_ZERO.search(sym):
                code.append(f'long {sym}(void) {{ return 0; }}')
            else:
                code.append(f'void {sym}(void) {{ __builtin_trap(); }}')
            versions[ver].add(sym)
        if not versions:
            code.append('void vqm_stub_empty(void) {}')
        src, vmap, so = (os.path.join(outdir, lib + s) for s in ('.c', '.map', ''))
        with open(src, 'w') as f:
            f.write('\n'.join(code) + '\n')
        cmd = ['gcc', '-shared', '-fPIC', '-O0', '-w', '-o', so, src, f'-Wl,-soname,{lib}']
        if any(v is not None for v in versions):
            with open(vmap, 'w') as f:
                for v, syms in versions.items():
                    node = v if v is not None else 'VQM_STUB'
                    f.write(f'{node} {{ global: ' + '; '.join(sorted(syms)) + '; };\n')
            cmd.append(f'-Wl,--version-script={vmap}')
        subprocess.run(cmd, check=True)
        os.remove(src)
        if os.path.exists(vmap):
            os.remove(vmap)
        print(f'stub {lib}: {sum(len(s) for s in versions.values())} symbols')


if __name__ == '__main__':
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3].split(','), sys.argv[4:])
