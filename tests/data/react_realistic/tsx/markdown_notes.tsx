// Markdown Notes: note-taking app with a split editor/preview, a small Markdown renderer, tags, search, pinning and debounced autosave
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';

interface Note {
  id: number;
  title: string;
  body: string;
  tags: string[];
  pinned: boolean;
  updatedAt: number;
}

type ViewMode = 'split' | 'edit' | 'preview';

const SAMPLE: Note[] = [
  {
    id: 1,
    title: 'Weekly planning',
    body: '# Week 23\n\n## Goals\n- Ship the **billing** redesign\n- Review *three* RFCs\n- Plan offsite\n\n## Notes\nRemember to sync with `design-team` before Thursday.\n\n> Focus on fewer things, done well.',
    tags: ['work', 'planning'],
    pinned: true,
    updatedAt: Date.now() - 3600_000,
  },
  {
    id: 2,
    title: 'Sourdough recipe',
    body: '# Sourdough\n\n1. Feed starter the night before\n2. Mix 500g flour, 350g water\n3. Rest 1 hour, add 10g salt\n4. Stretch and fold x4\n\nBake at **250°C** for 20 min covered, then 25 min uncovered.',
    tags: ['cooking'],
    pinned: false,
    updatedAt: Date.now() - 86_400_000,
  },
  {
    id: 3,
    title: 'Book list',
    body: '## To read\n- The Pragmatic Programmer\n- Designing Data-Intensive Applications\n- *Piranesi*\n\n## Finished\n- Project Hail Mary',
    tags: ['personal', 'books'],
    pinned: false,
    updatedAt: Date.now() - 3 * 86_400_000,
  },
];

function useDebounced<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(t);
  }, [value, delay]);
  return debounced;
}

function renderInline(text: string, keyPrefix: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const pattern = /(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/g;
  let last = 0;
  let match: RegExpExecArray | null;
  let i = 0;
  while ((match = pattern.exec(text)) !== null) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const token = match[0];
    const key = `${keyPrefix}-${i++}`;
    if (token.startsWith('**')) parts.push(<strong key={key}>{token.slice(2, -2)}</strong>);
    else if (token.startsWith('`')) parts.push(<code key={key} className="rounded bg-gray-100 px-1 font-mono text-sm text-pink-600">{token.slice(1, -1)}</code>);
    else parts.push(<em key={key}>{token.slice(1, -1)}</em>);
    last = match.index + token.length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

function renderMarkdown(src: string): ReactNode[] {
  const lines = src.split('\n');
  const out: ReactNode[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;

  const flush = (key: string) => {
    if (!list) return;
    const items = list.items.map((it, i) => <li key={i}>{renderInline(it, `${key}-${i}`)}</li>);
    out.push(list.ordered ? <ol key={key} className="my-2 ml-6 list-decimal space-y-1">{items}</ol> : <ul key={key} className="my-2 ml-6 list-disc space-y-1">{items}</ul>);
    list = null;
  };

  lines.forEach((line, idx) => {
    const key = `l${idx}`;
    const bullet = /^[-*]\s+(.*)$/.exec(line);
    const numbered = /^\d+\.\s+(.*)$/.exec(line);
    if (bullet || numbered) {
      const ordered = Boolean(numbered);
      if (list && list.ordered !== ordered) flush(`${key}-flush`);
      if (!list) list = { ordered, items: [] };
      list.items.push((bullet ?? numbered)?.[1] ?? '');
      return;
    }
    flush(`${key}-list`);
    if (line.startsWith('### ')) out.push(<h3 key={key} className="mt-3 text-lg font-semibold">{renderInline(line.slice(4), key)}</h3>);
    else if (line.startsWith('## ')) out.push(<h2 key={key} className="mt-4 text-xl font-bold">{renderInline(line.slice(3), key)}</h2>);
    else if (line.startsWith('# ')) out.push(<h1 key={key} className="mt-2 text-2xl font-extrabold">{renderInline(line.slice(2), key)}</h1>);
    else if (line.startsWith('> ')) out.push(<blockquote key={key} className="my-2 border-l-4 border-amber-400 pl-3 italic text-gray-600">{renderInline(line.slice(2), key)}</blockquote>);
    else if (line.trim() === '') out.push(<div key={key} className="h-2" />);
    else out.push(<p key={key} className="leading-relaxed">{renderInline(line, key)}</p>);
  });
  flush('end-list');
  return out;
}

function relativeTime(ts: number): string {
  const mins = Math.round((Date.now() - ts) / 60_000);
  if (mins < 1) return 'just now';
  if (mins < 60) return `${mins} min ago`;
  const hours = Math.round(mins / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

export default function App() {
  const [notes, setNotes] = useState<Note[]>(SAMPLE);
  const [activeId, setActiveId] = useState<number>(SAMPLE[0].id);
  const [query, setQuery] = useState('');
  const [tagFilter, setTagFilter] = useState<string | null>(null);
  const [mode, setMode] = useState<ViewMode>('split');
  const [draftBody, setDraftBody] = useState(SAMPLE[0].body);
  const [tagInput, setTagInput] = useState('');
  const pending = useMemo(() => ({ id: activeId, body: draftBody }), [activeId, draftBody]);
  const debounced = useDebounced(pending, 600);
  const [savedAt, setSavedAt] = useState<number | null>(null);

  const active = notes.find((n) => n.id === activeId);

  const saveBody = useCallback((id: number, body: string) => {
    setNotes((ns) =>
      ns.map((n) => {
        if (n.id !== id || n.body === body) return n;
        const heading = /^#+\s+(.+)$/m.exec(body)?.[1];
        return { ...n, body, title: heading?.trim() || n.title, updatedAt: Date.now() };
      }),
    );
    setSavedAt(Date.now());
  }, []);

  useEffect(() => {
    saveBody(debounced.id, debounced.body);
  }, [debounced, saveBody]);

  const allTags = useMemo(() => Array.from(new Set(notes.flatMap((n) => n.tags))).sort(), [notes]);

  const visible = useMemo(() => {
    const q = query.toLowerCase();
    return notes
      .filter((n) => (!tagFilter || n.tags.includes(tagFilter)) && (n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q)))
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt - a.updatedAt);
  }, [notes, query, tagFilter]);

  const preview = useMemo(() => renderMarkdown(draftBody), [draftBody]);
  const words = draftBody.trim() ? draftBody.trim().split(/\s+/).length : 0;

  const open = (note: Note) => {
    if (note.id === activeId) return;
    saveBody(activeId, draftBody);
    setActiveId(note.id);
    setDraftBody(note.body);
  };

  const createNote = () => {
    const note: Note = { id: Date.now(), title: 'Untitled', body: '# Untitled\n\n', tags: [], pinned: false, updatedAt: Date.now() };
    setNotes((ns) => [note, ...ns]);
    open(note);
  };

  const deleteActive = () => {
    if (!active) return;
    const remaining = notes.filter((n) => n.id !== active.id);
    setNotes(remaining);
    if (remaining[0]) open(remaining[0]);
  };

  const addTag = () => {
    const tag = tagInput.trim().toLowerCase().replace(/\s+/g, '-');
    if (!tag || !active || active.tags.includes(tag)) return;
    setNotes((ns) => ns.map((n) => (n.id === active.id ? { ...n, tags: [...n.tags, tag] } : n)));
    setTagInput('');
  };

  return (
    <div className="flex h-screen bg-amber-50/40 text-gray-800">
      <aside className="flex w-72 flex-col border-r border-gray-200 bg-white">
        <div className="space-y-3 p-4">
          <div className="flex items-center justify-between">
            <h1 className="text-lg font-bold">Notes</h1>
            <button onClick={createNote} className="rounded-lg bg-amber-500 px-3 py-1 text-sm font-semibold text-white hover:bg-amber-600">
              + New
            </button>
          </div>
          <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search notes…" className="w-full rounded-lg border border-gray-200 px-3 py-2 text-sm" />
          <div className="flex flex-wrap gap-1">
            {allTags.map((t) => (
              <button
                key={t}
                onClick={() => setTagFilter((f) => (f === t ? null : t))}
                className={`rounded-full px-2 py-0.5 text-xs ${tagFilter === t ? 'bg-amber-500 text-white' : 'bg-gray-100 text-gray-600 hover:bg-gray-200'}`}
              >
                #{t}
              </button>
            ))}
          </div>
        </div>
        <ul className="flex-1 overflow-y-auto">
          {visible.map((n) => (
            <li key={n.id}>
              <button onClick={() => open(n)} className={`w-full border-l-4 px-4 py-3 text-left ${n.id === activeId ? 'border-amber-500 bg-amber-50' : 'border-transparent hover:bg-gray-50'}`}>
                <div className="flex items-center gap-1 text-sm font-semibold">
                  {n.pinned && <span title="Pinned">📌</span>}
                  <span className="truncate">{n.title}</span>
                </div>
                <div className="truncate text-xs text-gray-500">{n.body.replace(/[#*>`-]/g, '').trim().slice(0, 60)}</div>
                <div className="mt-1 text-[10px] text-gray-400">{relativeTime(n.updatedAt)}</div>
              </button>
            </li>
          ))}
          {visible.length === 0 && <li className="p-4 text-sm text-gray-400">No notes found.</li>}
        </ul>
      </aside>

      {active ? (
        <main className="flex flex-1 flex-col">
          <div className="flex items-center justify-between border-b border-gray-200 bg-white px-6 py-3">
            <div className="flex items-center gap-2">
              {active.tags.map((t) => (
                <span key={t} className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-800">
                  #{t}
                  <button
                    onClick={() => setNotes((ns) => ns.map((n) => (n.id === active.id ? { ...n, tags: n.tags.filter((x) => x !== t) } : n)))}
                    className="ml-1 text-amber-600 hover:text-amber-900"
                    aria-label={`Remove tag ${t}`}
                  >
                    ×
                  </button>
                </span>
              ))}
              <input
                value={tagInput}
                onChange={(e) => setTagInput(e.target.value)}
                onKeyDown={(e) => e.key === 'Enter' && addTag()}
                placeholder="add tag"
                className="w-24 rounded border border-dashed border-gray-300 px-2 py-0.5 text-xs outline-none"
              />
            </div>
            <div className="flex items-center gap-2 text-sm">
              <span className="text-xs text-gray-400">{savedAt ? `Saved ${new Date(savedAt).toLocaleTimeString()}` : 'Not saved yet'}</span>
              <button
                onClick={() => setNotes((ns) => ns.map((n) => (n.id === active.id ? { ...n, pinned: !n.pinned } : n)))}
                className="rounded px-2 py-1 hover:bg-gray-100"
              >
                {active.pinned ? 'Unpin' : 'Pin'}
              </button>
              <div className="flex overflow-hidden rounded-lg border border-gray-200">
                {(['edit', 'split', 'preview'] as ViewMode[]).map((m) => (
                  <button key={m} onClick={() => setMode(m)} className={`px-3 py-1 capitalize ${mode === m ? 'bg-gray-900 text-white' : 'hover:bg-gray-100'}`}>
                    {m}
                  </button>
                ))}
              </div>
              <button onClick={deleteActive} className="rounded px-2 py-1 text-red-600 hover:bg-red-50">
                Delete
              </button>
            </div>
          </div>
          <div className="flex flex-1 overflow-hidden">
            {mode !== 'preview' && (
              <textarea
                value={draftBody}
                onChange={(e) => setDraftBody(e.target.value)}
                spellCheck={false}
                className={`${mode === 'split' ? 'w-1/2 border-r border-gray-200' : 'w-full'} resize-none bg-white p-6 font-mono text-sm leading-6 outline-none`}
              />
            )}
            {mode !== 'edit' && <article className={`${mode === 'split' ? 'w-1/2' : 'w-full'} overflow-y-auto p-6`}>{preview}</article>}
          </div>
          <footer className="border-t border-gray-200 bg-white px-6 py-1.5 text-xs text-gray-400">
            {words} words · {draftBody.length} characters · ~{Math.max(1, Math.round(words / 200))} min read
          </footer>
        </main>
      ) : (
        <main className="flex flex-1 items-center justify-center text-gray-400">Create a note to get started.</main>
      )}
    </div>
  );
}
