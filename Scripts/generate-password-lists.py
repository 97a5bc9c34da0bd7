#!/usr/bin/python3
"""Writes Sources/CPasswordLists/PasswordLists.c: the word lists of the strength
estimate as one compact graph the estimate walks in place.

The lists (sources and licences in Sources/CPasswordLists/NOTICE.md) are
zxcvbn-c's, as Debian builds its libzxcvbn: zxcvbn's English, name, surname
and television lists and Mark Burnett's 10,000 common passwords, combined as
zxcvbn-c's dictgen combines them, so that the estimate can be checked against
zxcvbn-c on the same passwords; then zxcvbn's 47,023 common passwords, for
the words those lack. Give the data/ directory of a checkout of zxcvbn and
the 10,000 passwords, which are in zxcvbn-c's first commit:

    git clone https://github.com/dropbox/zxcvbn /tmp/zxcvbn
    git clone https://github.com/tsyrogit/zxcvbn-c /tmp/zxcvbn-c
    git -C /tmp/zxcvbn-c show 38a981d:words-10k-pass.txt > /tmp/words-10k-pass.txt
    /usr/bin/python3 Scripts/generate-password-lists.py /tmp/zxcvbn/data /tmp/words-10k-pass.txt

dictgen's rules: a word is lower-cased, skipped when it holds a byte outside
ASCII or when 26 to the power of its length is below its place in its list
(brute force would find it sooner), and the lists take turns, one new word
each, the turn's number being the word's rank. A word of zxcvbn's password
list that none of them holds is ranked by its place in that list.

The graph is the words' minimal acyclic automaton, each word ending in a node
that holds its rank (log2 of it, in steps of 1/RANK_STEPS) and whether the
word is on one of the password lists. The format, which Sources/SecretField/
Strength/Internals/WordGraph.swift reads:

    "SFW1", symbol count S, S symbols (ASCII), root offset (3 bytes, little
    endian), RANK_STEPS, then node records.
    A record: a header byte (bits 0-5 the number of edges, bit 6 the node ends
    a word, bit 7 that word is a password), the rank byte when it ends a word,
    the edges' label bytes in symbol order (bits 0-5 the symbol, bits 6-7 how
    the target is given), then each edge's target in the same order:
      0  none: the target is the record that follows this one
      1  one byte: the target ends a word and has no edges; bit 7 says it is
         a password, bits 0-6 its rank
      2  two bytes: the target's offset from this record's start, signed
      3  three bytes: the target's offset in the graph
"""
import math
import os
import sys

# The files, in the order Debian's build of zxcvbn-c hands them to dictgen
# (None is the 10,000 passwords, given on the command line).
LISTS = [
    "english_wikipedia",
    "female_names",
    "male_names",
    None,
    "surnames",
    "us_tv_and_film",
]
# zxcvbn's own password list, for the words those lack.
MORE_PASSWORDS = "passwords"
RANK_STEPS = 7
OUTPUT = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "CPasswordLists",
    "PasswordLists.c")


def read_list(path):
    words = []
    with open(path, "rb") as file:
        for line in file:
            token = line.split(None, 1)[0] if line.strip() else b""
            if not token:
                continue
            if any(byte >= 0x80 for byte in token):
                continue
            word = token.lower().decode("ascii")
            if 26.0 ** len(word) < len(words) + 1:
                continue
            words.append(word)
    return words


def combine(lists):
    ranks = {}
    positions = [0] * len(lists)
    turn = 0
    while True:
        turn += 1
        taken = False
        for index, words in enumerate(lists):
            while positions[index] < len(words):
                word = words[positions[index]]
                positions[index] += 1
                taken = True
                if word not in ranks:
                    ranks[word] = turn
                    break
        if not taken:
            return ranks


def build_graph(ranks, passwords):
    """The minimal automaton: nodes as (end, children), end = (bucket, password) or None."""
    root = {}
    for word, rank in ranks.items():
        node = root
        for character in word:
            node = node.setdefault(character, {})
        node[None] = (round(math.log2(rank) * RANK_STEPS), word in passwords)
    registry = {}
    nodes = []

    def minimise(node):
        # Iterative post-order: words run to about 40 characters, which
        # recursion handles, but the lists may grow.
        stack = [(node, False)]
        ids = {}
        while stack:
            current, expanded = stack.pop()
            if not expanded:
                stack.append((current, True))
                for key, child in current.items():
                    if key is not None and id(child) not in ids:
                        stack.append((child, False))
                continue
            children = tuple(sorted(
                (key, ids[id(child)]) for key, child in current.items() if key is not None))
            signature = (current.get(None), children)
            if signature not in registry:
                registry[signature] = len(nodes)
                nodes.append(signature)
            ids[id(current)] = registry[signature]
        return ids[id(node)]

    return minimise(root), nodes


def encode(root, nodes, symbols):
    symbol_index = {symbol: index for index, symbol in enumerate(symbols)}

    def is_leaf(node):
        return not nodes[node][1]

    # Records in depth-first order, each node's last unplaced child right
    # after it, so that edge needs no target.
    order = []
    placed = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if node in placed or is_leaf(node):
            continue
        placed.add(node)
        order.append(node)
        children = [child for _, child in nodes[node][1]
                    if child not in placed and not is_leaf(child)]
        stack.extend(reversed(children[:-1]))
        if children:
            stack.append(children[-1])
    follows = {order[index]: order[index + 1] for index in range(len(order) - 1)}

    header = bytearray(b"SFW1")
    header.append(len(symbols))
    header.extend(ord(symbol) for symbol in symbols)
    header_size = len(header) + 3 + 1

    def target_kind(node, child, offsets):
        if is_leaf(child):
            return 1
        if follows.get(node) == child:
            return 0
        if offsets is not None:
            distance = offsets[child] - offsets[node]
            if -32768 <= distance < 32768:
                return 2
        return 3

    # Offsets depend on the targets' sizes and those on the offsets: settle
    # them by repeating the layout until it no longer changes.
    offsets = None
    while True:
        new_offsets = {}
        position = header_size
        for node in order:
            new_offsets[node] = position
            end, children = nodes[node]
            position += 1 + (1 if end else 0) + len(children)
            for _, child in children:
                position += [0, 1, 2, 3][target_kind(node, child, offsets)]
        if new_offsets == offsets:
            break
        offsets = new_offsets

    body = bytearray()
    for node in order:
        assert offsets[node] == header_size + len(body)
        end, children = nodes[node]
        assert len(children) < 64
        flags = len(children)
        if end:
            flags |= 0x40 | (0x80 if end[1] else 0)
        body.append(flags)
        if end:
            assert end[0] < 128
            body.append(end[0])
        kinds = [target_kind(node, child, offsets) for _, child in children]
        for (symbol, _), kind in zip(children, kinds):
            body.append(symbol_index[symbol] | kind << 6)
        for (_, child), kind in zip(children, kinds):
            if kind == 1:
                bucket, password = nodes[child][0]
                assert bucket < 128
                body.append(bucket | (0x80 if password else 0))
            elif kind == 2:
                body.extend((offsets[child] - offsets[node]).to_bytes(2, "little", signed=True))
            elif kind == 3:
                body.extend(offsets[child].to_bytes(3, "little"))
    header.extend(offsets[root].to_bytes(3, "little"))
    header.append(RANK_STEPS)
    return bytes(header + body)


def c_string_lines(data, width=96):
    line = ""
    for byte in data:
        if 0x20 <= byte < 0x7F and chr(byte) not in '"\\?':
            piece = chr(byte)
        else:
            piece = "\\%03o" % byte
        if len(line) + len(piece) > width:
            yield line
            line = ""
        line += piece
    if line:
        yield line


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    directory, burnett = sys.argv[1:]
    lists = [read_list(os.path.join(directory, name + ".txt") if name else burnett)
             for name in LISTS]
    more = read_list(os.path.join(directory, MORE_PASSWORDS + ".txt"))
    passwords = set(lists[LISTS.index(None)]) | set(more)
    ranks = combine(lists)
    for place, word in enumerate(more, 1):
        ranks.setdefault(word, place)
    symbols = sorted(set("".join(ranks)))
    assert len(symbols) <= 64
    root, nodes = build_graph(ranks, passwords)
    data = encode(root, nodes, symbols)
    counts = ", ".join("%s %d" % (name or "10k passwords", len(words))
                       for name, words in zip(LISTS + [MORE_PASSWORDS], lists + [more]))
    with open(OUTPUT, "w") as output:
        output.write(
            "// Generated by Scripts/generate-password-lists.py from zxcvbn's and\n"
            "// zxcvbn-c's word lists (sources and licences: NOTICE.md). Do not edit.\n"
            "//\n"
            "// Words kept: %s;\n"
            "// %d words in all (%d of them passwords), highest rank %d;\n"
            "// %d nodes, %d bytes.\n\n"
            "#include \"PasswordLists.h\"\n\n"
            "static const char graph[%d] =\n"
            % (counts, len(ranks), len(passwords), max(ranks.values()), len(nodes),
               len(data), len(data)))
        for line in c_string_lines(data):
            output.write('  "%s"\n' % line)
        output.write(";\n\n")
        output.write(
            "const unsigned char *secretfield_password_lists(void) {\n"
            "  return (const unsigned char *)graph;\n"
            "}\n\n"
            "unsigned long secretfield_password_lists_size(void) { return sizeof graph; }\n")
    print("%d words, %d nodes, %d bytes" % (len(ranks), len(nodes), len(data)))


if __name__ == "__main__":
    main()
