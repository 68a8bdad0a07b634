#!/usr/bin/env python3
"""Lists C++ function definitions longer than a limit, in lines from the header's brace to the
closing one. Usage: function_lengths.py LIMIT FILE_OR_FOLDER...; exit 1 when one is longer.
A function is a brace block whose enclosing blocks are all namespaces, classes, structs or extern
"C" blocks and whose header holds a parameter list; lambdas and local classes count as part of
the function around them. Comments, string and character literals are skipped."""
import pathlib
import re
import sys

SCOPE = re.compile(r'^\s*(?:template\s*<.*>\s*)?(namespace|class|struct|union|enum|extern\s+"C")\b', re.S)


def code_only(text):
    """The text with comments and literals blanked (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(')' + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + '\n' * text.count('\n', i, j))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def long_functions(path, limit):
    code = code_only(path.read_text(encoding='utf-8', errors='replace'))
    stack, header_start, found = [], 0, []  # stack: (kind, line of the opening brace, name)
    line = 1
    for i, c in enumerate(code):
        if c == '\n':
            line += 1
        elif c in ';':
            if all(kind == 'scope' for kind, _, _ in stack):
                header_start = i + 1
        elif c == '{':
            header = code[header_start:i]
            if all(kind == 'scope' for kind, _, _ in stack):
                is_scope = SCOPE.match(header) or '(' not in header or header.rstrip().endswith('=')
                name = ' '.join(header.split())[-120:]
                stack.append(('scope' if is_scope else 'function', line, name))
            else:
                stack.append(('inner', line, ''))
            header_start = i + 1
        elif c == '}':
            if not stack:
                continue
            kind, start, name = stack.pop()
            if kind == 'function' and line - start + 1 > limit:
                found.append((line - start + 1, f'{path}:{start}: {name}'))
            if all(k == 'scope' for k, _, _ in stack):
                header_start = i + 1
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: function_lengths.py LIMIT FILE_OR_FOLDER...')
    limit = int(sys.argv[1])
    files = []
    for arg in sys.argv[2:]:
        p = pathlib.Path(arg)
        files += sorted(q for q in p.rglob('*') if q.suffix in ('.cpp', '.hpp', '.cu', '.cuh')) if p.is_dir() else [p]
    found = sorted((f for path in files for f in long_functions(path, limit)), reverse=True)
    for lines, where in found:
        print(f'{lines} lines: {where}')
    print(f'function_lengths: {len(files)} files, {len(found)} functions over {limit} lines')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
