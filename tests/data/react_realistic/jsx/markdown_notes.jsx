// Markdown Notes: note list with search and tags, a split editor with live preview, autosave and keyboard shortcuts
import { useState, useEffect, useMemo, useRef, useCallback } from 'react';

const STORAGE_KEY = 'md-notes';

const DEFAULT_NOTES = [
  {
    id: 'n1',
    title: 'Welcome',
    tags: ['guide'],
    updated: Date.now() - 3600000,
    body: '# Welcome to Notes\n\nThis editor supports a **small subset** of Markdown:\n\n- Headings with `#`\n- **Bold** and *italic*\n- Inline `code`\n- Bulleted lists\n\n> Tip: press Ctrl+S to save and Ctrl+N for a new note.',
  },
  {
    id: 'n2',
    title: 'Groceries',
    tags: ['personal'],
    updated: Date.now() - 86400000,
    body: '## This week\n\n- Oat milk\n- Sourdough\n- Tomatoes\n- *Something for dessert*',
  },
  {
    id: 'n3',
    title: 'Sprint retro',
    tags: ['work', 'meetings'],
    updated: Date.now() - 2 * 86400000,
    body: '## What went well\n\n- Shipped the **billing page** on time\n- Fewer flaky tests\n\n## To improve\n\n- Review PRs within a day\n- Write the `release notes` earlier',
  },
];

function escapeHtml(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function inline(text) {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code class="bg-slate-100 px-1 rounded text-pink-600">$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');
}

function renderMarkdown(md) {
  const lines = md.split('\n');
  const html = [];
  let inList = false;
  lines.forEach((line) => {
    const closeList = () => { if (inList) { html.push('</ul>'); inList = false; } };
    if (/^### /.test(line)) { closeList(); html.push(`<h3 class="text-lg font-semibold mt-4">${inline(line.slice(4))}</h3>`); }
    else if (/^## /.test(line)) { closeList(); html.push(`<h2 class="text-xl font-bold mt-5">${inline(line.slice(3))}</h2>`); }
    else if (/^# /.test(line)) { closeList(); html.push(`<h1 class="text-2xl font-extrabold mt-2">${inline(line.slice(2))}</h1>`); }
    else if (/^> /.test(line)) { closeList(); html.push(`<blockquote class="border-l-4 border-amber-300 pl-3 text-slate-600 my-3">${inline(line.slice(2))}</blockquote>`); }
    else if (/^- /.test(line)) {
      if (!inList) { html.push('<ul class="list-disc pl-6 my-2">'); inList = true; }
      html.push(`<li>${inline(line.slice(2))}</li>`);
    } else if (line.trim() === '') { closeList(); }
    else { closeList(); html.push(`<p class="my-2">${inline(line)}</p>`); }
  });
  if (inList) html.push('</ul>');
  return html.join('');
}

function loadNotes() {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    const parsed = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) && parsed.length ? parsed : DEFAULT_NOTES;
  } catch {
    return DEFAULT_NOTES;
  }
}

function timeAgo(ts) {
  const mins = Math.round((Date.now() - ts) / 60000);
  if (mins < 1) return 'just now';
  if (mins < 60) return `${mins}m ago`;
  const hours = Math.round(mins / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}

export default function App() {
  const [notes, setNotes] = useState(loadNotes);
  const [activeId, setActiveId] = useState(() => notes[0].id);
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState(null);
  const [saveState, setSaveState] = useState('saved');
  const [tagInput, setTagInput] = useState('');
  const editorRef = useRef(null);

  const active = notes.find((n) => n.id === activeId) || notes[0];

  useEffect(() => {
    setSaveState('saving');
    const id = setTimeout(() => {
      try {
        window.localStorage.setItem(STORAGE_KEY, JSON.stringify(notes));
        setSaveState('saved');
      } catch {
        setSaveState('error');
      }
    }, 600);
    return () => clearTimeout(id);
  }, [notes]);

  const updateActive = useCallback((patch) => {
    setNotes((prev) => prev.map((n) => (n.id === activeId ? { ...n, ...patch, updated: Date.now() } : n)));
  }, [activeId]);

  const createNote = useCallback(() => {
    const note = { id: `n${Date.now()}`, title: 'Untitled', tags: [], body: '', updated: Date.now() };
    setNotes((prev) => [note, ...prev]);
    setActiveId(note.id);
    setTimeout(() => editorRef.current && editorRef.current.focus(), 0);
  }, []);

  const deleteNote = (id) => {
    if (notes.length === 1) return;
    const remaining = notes.filter((n) => n.id !== id);
    setNotes(remaining);
    if (id === activeId) setActiveId(remaining[0].id);
  };

  useEffect(() => {
    const onKey = (e) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key === 'n') { e.preventDefault(); createNote(); }
      if (mod && e.key === 's') {
        e.preventDefault();
        try {
          window.localStorage.setItem(STORAGE_KEY, JSON.stringify(notes));
          setSaveState('saved');
        } catch {
          setSaveState('error');
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [createNote, notes]);

  const allTags = useMemo(() => Array.from(new Set(notes.flatMap((n) => n.tags))).sort(), [notes]);

  const visible = useMemo(() => {
    const q = search.toLowerCase();
    return notes
      .filter((n) => !tag || n.tags.includes(tag))
      .filter((n) => !q || n.title.toLowerCase().includes(q) || n.body.toLowerCase().includes(q))
      .sort((a, b) => b.updated - a.updated);
  }, [notes, search, tag]);

  const preview = useMemo(() => renderMarkdown(active.body), [active.body]);
  const words = active.body.trim() ? active.body.trim().split(/\s+/).length : 0;

  const addTag = (e) => {
    e.preventDefault();
    const t = tagInput.trim().toLowerCase().replace(/\s+/g, '-');
    if (!t || active.tags.includes(t)) return;
    updateActive({ tags: [...active.tags, t] });
    setTagInput('');
  };

  return (
    <div className="h-screen flex bg-white text-slate-800">
      <aside className="w-72 border-r border-slate-200 flex flex-col bg-slate-50">
        <div className="p-4 space-y-3">
          <div className="flex items-center justify-between">
            <h1 className="font-bold text-lg">Notes</h1>
            <button onClick={createNote} className="text-sm bg-amber-400 hover:bg-amber-500 px-3 py-1 rounded-md font-medium">+ New</button>
          </div>
          <input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search notes…" className="w-full border border-slate-200 rounded-md px-3 py-1.5 text-sm" />
          <div className="flex flex-wrap gap-1">
            <button onClick={() => setTag(null)} className={`text-xs px-2 py-0.5 rounded-full ${tag === null ? 'bg-slate-800 text-white' : 'bg-slate-200'}`}>all</button>
            {allTags.map((t) => (
              <button key={t} onClick={() => setTag(t === tag ? null : t)} className={`text-xs px-2 py-0.5 rounded-full ${tag === t ? 'bg-slate-800 text-white' : 'bg-slate-200'}`}>#{t}</button>
            ))}
          </div>
        </div>
        <ul className="flex-1 overflow-y-auto">
          {visible.map((n) => (
            <li key={n.id}>
              <button onClick={() => setActiveId(n.id)} className={`w-full text-left px-4 py-3 border-l-4 ${n.id === active.id ? 'bg-white border-amber-400' : 'border-transparent hover:bg-white/60'}`}>
                <p className="font-medium truncate">{n.title || 'Untitled'}</p>
                <p className="text-xs text-slate-500 truncate">{n.body.replace(/[#*>`-]/g, '').slice(0, 60) || 'Empty note'}</p>
                <p className="text-[10px] text-slate-400 mt-1">{timeAgo(n.updated)}</p>
              </button>
            </li>
          ))}
          {visible.length === 0 && <li className="px-4 py-6 text-sm text-slate-400">No notes found.</li>}
        </ul>
      </aside>

      <main className="flex-1 flex flex-col">
        <div className="border-b border-slate-200 px-6 py-3 flex items-center gap-4">
          <input value={active.title} onChange={(e) => updateActive({ title: e.target.value })} className="text-xl font-semibold flex-1 outline-none" placeholder="Title" />
          <span className={`text-xs ${saveState === 'error' ? 'text-rose-600' : 'text-slate-400'}`}>
            {saveState === 'saving' ? 'Saving…' : saveState === 'error' ? 'Could not save' : 'Saved'}
          </span>
          <button onClick={() => deleteNote(active.id)} disabled={notes.length === 1} className="text-sm text-slate-400 hover:text-rose-600 disabled:opacity-30">Delete</button>
        </div>
        <div className="px-6 py-2 flex items-center gap-2 border-b border-slate-100">
          {active.tags.map((t) => (
            <span key={t} className="text-xs bg-amber-100 text-amber-800 px-2 py-0.5 rounded-full flex items-center gap-1">
              #{t}
              <button onClick={() => updateActive({ tags: active.tags.filter((x) => x !== t) })} aria-label={`Remove tag ${t}`}>×</button>
            </span>
          ))}
          <form onSubmit={addTag}>
            <input value={tagInput} onChange={(e) => setTagInput(e.target.value)} placeholder="add tag" className="text-xs outline-none w-24" />
          </form>
        </div>
        <div className="flex-1 grid grid-cols-2 min-h-0">
          <textarea
            ref={editorRef}
            value={active.body}
            onChange={(e) => updateActive({ body: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Tab') {
                e.preventDefault();
                const el = e.currentTarget;
                const { selectionStart, selectionEnd } = el;
                const next = `${active.body.slice(0, selectionStart)}  ${active.body.slice(selectionEnd)}`;
                updateActive({ body: next });
                requestAnimationFrame(() => { el.selectionStart = el.selectionEnd = selectionStart + 2; });
              }
            }}
            className="p-6 font-mono text-sm resize-none outline-none border-r border-slate-100"
            placeholder="Start writing…"
          />
          <article className="p-6 overflow-y-auto prose-sm" dangerouslySetInnerHTML={{ __html: preview }} />
        </div>
        <footer className="px-6 py-1.5 text-xs text-slate-400 border-t border-slate-100">{words} words · {active.body.length} characters · Ctrl+N new · Ctrl+S save</footer>
      </main>
    </div>
  );
}
