// Kanban Board: drag-and-drop task board with columns, priorities, assignees, inline card editor and search
import { useMemo, useReducer, useState } from 'react';
import type { DragEvent, FormEvent } from 'react';
import { Plus, Search, Trash2, X, Flag, Calendar, GripVertical, Pencil } from 'lucide-react';

type ColumnId = 'backlog' | 'todo' | 'doing' | 'review' | 'done';
type Priority = 'low' | 'medium' | 'high' | 'urgent';

interface Card {
  id: string;
  title: string;
  description: string;
  priority: Priority;
  assignee: string;
  due: string;
  column: ColumnId;
  tags: string[];
}

interface Column {
  id: ColumnId;
  title: string;
  limit?: number;
}

type Action =
  | { type: 'add'; card: Card }
  | { type: 'update'; card: Card }
  | { type: 'remove'; id: string }
  | { type: 'move'; id: string; to: ColumnId; beforeId: string | null };

const COLUMNS: Column[] = [
  { id: 'backlog', title: 'Backlog' },
  { id: 'todo', title: 'To do' },
  { id: 'doing', title: 'In progress', limit: 3 },
  { id: 'review', title: 'Review', limit: 2 },
  { id: 'done', title: 'Done' },
];

const PEOPLE = ['Ava Chen', 'Marco Ruiz', 'Priya Nair', 'Jonas Berg', 'Unassigned'];

const PRIORITY_STYLES: Record<Priority, string> = {
  low: 'bg-slate-100 text-slate-600',
  medium: 'bg-sky-100 text-sky-700',
  high: 'bg-amber-100 text-amber-700',
  urgent: 'bg-rose-100 text-rose-700',
};

const SEED: Card[] = [
  { id: 'c1', title: 'Audit onboarding emails', description: 'Check copy and links in the 5-email drip.', priority: 'low', assignee: 'Ava Chen', due: '2024-07-02', column: 'backlog', tags: ['marketing'] },
  { id: 'c2', title: 'Billing page redesign', description: 'New layout for invoices and payment methods.', priority: 'high', assignee: 'Marco Ruiz', due: '2024-06-21', column: 'todo', tags: ['design', 'billing'] },
  { id: 'c3', title: 'Rate limit public API', description: 'Token bucket per API key, 100 req/min.', priority: 'urgent', assignee: 'Jonas Berg', due: '2024-06-14', column: 'doing', tags: ['backend'] },
  { id: 'c4', title: 'Fix dark mode contrast', description: 'Buttons in settings fail WCAG AA.', priority: 'medium', assignee: 'Priya Nair', due: '2024-06-18', column: 'doing', tags: ['a11y'] },
  { id: 'c5', title: 'Write release notes', description: 'Summarise v2.4 changes for the blog.', priority: 'low', assignee: 'Ava Chen', due: '2024-06-25', column: 'review', tags: ['docs'] },
  { id: 'c6', title: 'Migrate CI to new runners', description: 'Move workflows off the legacy machines.', priority: 'medium', assignee: 'Jonas Berg', due: '2024-06-10', column: 'done', tags: ['infra'] },
  { id: 'c7', title: 'Customer interview synthesis', description: 'Cluster findings from 12 interviews.', priority: 'medium', assignee: 'Priya Nair', due: '2024-06-28', column: 'todo', tags: ['research'] },
];

function reducer(state: Card[], action: Action): Card[] {
  switch (action.type) {
    case 'add':
      return [...state, action.card];
    case 'update':
      return state.map((c) => (c.id === action.card.id ? action.card : c));
    case 'remove':
      return state.filter((c) => c.id !== action.id);
    case 'move': {
      const card = state.find((c) => c.id === action.id);
      if (!card) return state;
      const rest = state.filter((c) => c.id !== action.id);
      const moved = { ...card, column: action.to };
      const index = action.beforeId ? rest.findIndex((c) => c.id === action.beforeId) : -1;
      if (index === -1) return [...rest, moved];
      return [...rest.slice(0, index), moved, ...rest.slice(index)];
    }
    default:
      return state;
  }
}

const emptyDraft = (column: ColumnId): Card => ({
  id: '',
  title: '',
  description: '',
  priority: 'medium',
  assignee: 'Unassigned',
  due: '',
  column,
  tags: [],
});

function initials(name: string): string {
  return name
    .split(' ')
    .map((p) => p[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

interface EditorProps {
  draft: Card;
  onSave: (card: Card) => void;
  onClose: () => void;
}

function CardEditor({ draft, onSave, onClose }: EditorProps) {
  const [card, setCard] = useState<Card>(draft);
  const [tagText, setTagText] = useState(draft.tags.join(', '));
  const [error, setError] = useState('');

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (card.title.trim().length < 3) {
      setError('Title needs at least 3 characters');
      return;
    }
    const tags = tagText
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    onSave({ ...card, title: card.title.trim(), tags });
  };

  return (
    <div className="fixed inset-0 z-20 flex items-center justify-center bg-black/40 p-4" onClick={onClose}>
      <form onSubmit={submit} onClick={(e) => e.stopPropagation()} className="w-full max-w-md space-y-3 rounded-xl bg-white p-6 shadow-2xl">
        <div className="flex items-center justify-between">
          <h2 className="text-lg font-semibold">{draft.id ? 'Edit card' : 'New card'}</h2>
          <button type="button" onClick={onClose} className="rounded p-1 hover:bg-gray-100" aria-label="Close">
            <X size={18} />
          </button>
        </div>
        <input
          autoFocus
          value={card.title}
          onChange={(e) => {
            setCard({ ...card, title: e.target.value });
            setError('');
          }}
          placeholder="Title"
          className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        {error && <p className="text-xs text-rose-600">{error}</p>}
        <textarea
          value={card.description}
          onChange={(e) => setCard({ ...card, description: e.target.value })}
          placeholder="Description"
          rows={3}
          className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm"
        />
        <div className="grid grid-cols-2 gap-3">
          <select value={card.priority} onChange={(e) => setCard({ ...card, priority: e.target.value as Priority })} className="rounded-lg border border-gray-300 px-2 py-2 text-sm">
            {(Object.keys(PRIORITY_STYLES) as Priority[]).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
          <select value={card.assignee} onChange={(e) => setCard({ ...card, assignee: e.target.value })} className="rounded-lg border border-gray-300 px-2 py-2 text-sm">
            {PEOPLE.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <input type="date" value={card.due} onChange={(e) => setCard({ ...card, due: e.target.value })} className="rounded-lg border border-gray-300 px-2 py-2 text-sm" />
          <select value={card.column} onChange={(e) => setCard({ ...card, column: e.target.value as ColumnId })} className="rounded-lg border border-gray-300 px-2 py-2 text-sm">
            {COLUMNS.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </div>
        <input value={tagText} onChange={(e) => setTagText(e.target.value)} placeholder="Tags, comma separated" className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm" />
        <div className="flex justify-end gap-2 pt-2">
          <button type="button" onClick={onClose} className="rounded-lg px-4 py-2 text-sm hover:bg-gray-100">
            Cancel
          </button>
          <button type="submit" className="rounded-lg bg-violet-600 px-4 py-2 text-sm font-medium text-white hover:bg-violet-700">
            Save
          </button>
        </div>
      </form>
    </div>
  );
}

export default function App() {
  const [cards, dispatch] = useReducer(reducer, SEED);
  const [query, setQuery] = useState('');
  const [assigneeFilter, setAssigneeFilter] = useState('All');
  const [dragId, setDragId] = useState<string | null>(null);
  const [overColumn, setOverColumn] = useState<ColumnId | null>(null);
  const [editing, setEditing] = useState<Card | null>(null);

  const visible = useMemo(() => {
    const q = query.toLowerCase();
    return cards.filter(
      (c) =>
        (assigneeFilter === 'All' || c.assignee === assigneeFilter) &&
        (c.title.toLowerCase().includes(q) || c.tags.some((t) => t.includes(q))),
    );
  }, [cards, query, assigneeFilter]);

  const byColumn = useMemo(() => {
    const map = {} as Record<ColumnId, Card[]>;
    COLUMNS.forEach((col) => {
      map[col.id] = visible.filter((c) => c.column === col.id);
    });
    return map;
  }, [visible]);

  const progress = cards.length ? Math.round((cards.filter((c) => c.column === 'done').length / cards.length) * 100) : 0;

  const onDragStart = (e: DragEvent<HTMLDivElement>, id: string) => {
    e.dataTransfer.setData('text/plain', id);
    e.dataTransfer.effectAllowed = 'move';
    setDragId(id);
  };

  const onDrop = (e: DragEvent<HTMLElement>, column: ColumnId, beforeId: string | null) => {
    e.preventDefault();
    e.stopPropagation();
    const id = e.dataTransfer.getData('text/plain') || dragId;
    if (id && id !== beforeId) dispatch({ type: 'move', id, to: column, beforeId });
    setDragId(null);
    setOverColumn(null);
  };

  const save = (card: Card) => {
    if (card.id) dispatch({ type: 'update', card });
    else dispatch({ type: 'add', card: { ...card, id: `c${Date.now()}` } });
    setEditing(null);
  };

  return (
    <div className="min-h-screen bg-gradient-to-b from-violet-50 to-white p-6">
      <header className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-gray-900">Sprint 14 board</h1>
          <div className="mt-2 flex items-center gap-3 text-sm text-gray-500">
            <div className="h-2 w-40 overflow-hidden rounded-full bg-gray-200">
              <div className="h-full bg-violet-600 transition-all" style={{ width: `${progress}%` }} />
            </div>
            {progress}% complete · {cards.length} cards
          </div>
        </div>
        <div className="flex items-center gap-2">
          <label className="flex items-center gap-2 rounded-lg border border-gray-200 bg-white px-3 py-2">
            <Search size={16} className="text-gray-400" />
            <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Search cards or tags" className="w-48 text-sm outline-none" />
          </label>
          <select value={assigneeFilter} onChange={(e) => setAssigneeFilter(e.target.value)} className="rounded-lg border border-gray-200 bg-white px-3 py-2 text-sm">
            <option>All</option>
            {PEOPLE.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <button onClick={() => setEditing(emptyDraft('todo'))} className="flex items-center gap-1 rounded-lg bg-violet-600 px-3 py-2 text-sm font-medium text-white hover:bg-violet-700">
            <Plus size={16} /> New card
          </button>
        </div>
      </header>

      <div className="grid grid-cols-5 gap-4">
        {COLUMNS.map((col) => {
          const list = byColumn[col.id];
          const total = cards.filter((c) => c.column === col.id).length;
          const overLimit = col.limit !== undefined && total > col.limit;
          return (
            <section
              key={col.id}
              onDragOver={(e) => {
                e.preventDefault();
                setOverColumn(col.id);
              }}
              onDragLeave={() => setOverColumn((c) => (c === col.id ? null : c))}
              onDrop={(e) => onDrop(e, col.id, null)}
              className={`flex min-h-[420px] flex-col rounded-xl border p-3 transition ${
                overColumn === col.id ? 'border-violet-400 bg-violet-50' : 'border-gray-200 bg-gray-50'
              }`}
            >
              <div className="mb-3 flex items-center justify-between">
                <h2 className="text-sm font-semibold text-gray-700">{col.title}</h2>
                <span className={`rounded-full px-2 text-xs ${overLimit ? 'bg-rose-100 text-rose-700' : 'bg-gray-200 text-gray-600'}`}>
                  {total}
                  {col.limit !== undefined ? ` / ${col.limit}` : ''}
                </span>
              </div>
              <div className="flex flex-1 flex-col gap-2">
                {list.map((card) => (
                  <div
                    key={card.id}
                    draggable
                    onDragStart={(e) => onDragStart(e, card.id)}
                    onDragEnd={() => setDragId(null)}
                    onDrop={(e) => onDrop(e, col.id, card.id)}
                    className={`group cursor-grab rounded-lg border border-gray-200 bg-white p-3 shadow-sm hover:shadow ${dragId === card.id ? 'opacity-40' : ''}`}
                  >
                    <div className="flex items-start gap-1">
                      <GripVertical size={14} className="mt-0.5 shrink-0 text-gray-300" />
                      <p className="flex-1 text-sm font-medium text-gray-900">{card.title}</p>
                      <button onClick={() => setEditing(card)} className="invisible rounded p-0.5 text-gray-400 hover:text-gray-700 group-hover:visible" aria-label="Edit">
                        <Pencil size={14} />
                      </button>
                      <button onClick={() => dispatch({ type: 'remove', id: card.id })} className="invisible rounded p-0.5 text-gray-400 hover:text-rose-600 group-hover:visible" aria-label="Delete">
                        <Trash2 size={14} />
                      </button>
                    </div>
                    {card.description && <p className="mt-1 line-clamp-2 text-xs text-gray-500">{card.description}</p>}
                    <div className="mt-2 flex flex-wrap gap-1">
                      {card.tags.map((t) => (
                        <span key={t} className="rounded bg-violet-50 px-1.5 py-0.5 text-[10px] text-violet-700">
                          #{t}
                        </span>
                      ))}
                    </div>
                    <div className="mt-2 flex items-center justify-between text-xs">
                      <span className={`flex items-center gap-1 rounded px-1.5 py-0.5 ${PRIORITY_STYLES[card.priority]}`}>
                        <Flag size={10} /> {card.priority}
                      </span>
                      {card.due && (
                        <span className="flex items-center gap-1 text-gray-400">
                          <Calendar size={10} /> {card.due.slice(5)}
                        </span>
                      )}
                      <span title={card.assignee} className="flex h-6 w-6 items-center justify-center rounded-full bg-gray-800 text-[10px] font-semibold text-white">
                        {card.assignee === 'Unassigned' ? '?' : initials(card.assignee)}
                      </span>
                    </div>
                  </div>
                ))}
                {list.length === 0 && <p className="py-8 text-center text-xs text-gray-400">Drop cards here</p>}
              </div>
              <button onClick={() => setEditing(emptyDraft(col.id))} className="mt-2 flex items-center justify-center gap-1 rounded-lg py-1.5 text-xs text-gray-500 hover:bg-gray-200">
                <Plus size={12} /> Add card
              </button>
            </section>
          );
        })}
      </div>

      {editing && <CardEditor key={editing.id || 'new'} draft={editing} onSave={save} onClose={() => setEditing(null)} />}
    </div>
  );
}
