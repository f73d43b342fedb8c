// Tasks: to-do list with projects, priorities, due dates, filters, inline editing and saved state
import { useState, useEffect, useMemo, useRef } from 'react';
import { Plus, Trash2, Pencil, Check, Search, Calendar, Flag, Inbox, ListTodo, CircleCheck } from 'lucide-react';

const PRIORITIES = {
  high: { label: 'High', className: 'text-rose-600 bg-rose-50' },
  medium: { label: 'Medium', className: 'text-amber-600 bg-amber-50' },
  low: { label: 'Low', className: 'text-slate-500 bg-slate-100' },
};

const PROJECTS = ['Inbox', 'Work', 'Personal', 'Errands'];

function todayPlus(days) {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return d.toISOString().slice(0, 10);
}

const SAMPLE = [
  { id: 1, title: 'Send invoice to Brightside', project: 'Work', priority: 'high', due: todayPlus(0), done: false },
  { id: 2, title: 'Book dentist appointment', project: 'Personal', priority: 'medium', due: todayPlus(3), done: false },
  { id: 3, title: 'Pick up dry cleaning', project: 'Errands', priority: 'low', due: todayPlus(-1), done: false },
  { id: 4, title: 'Draft Q3 roadmap', project: 'Work', priority: 'medium', due: todayPlus(7), done: true },
  { id: 5, title: 'Call grandma', project: 'Personal', priority: 'high', due: '', done: false },
];

function useLocalStorage(key, initial) {
  const [state, setState] = useState(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return stored ? JSON.parse(stored) : initial;
    } catch {
      return initial;
    }
  });
  useEffect(() => {
    try {
      window.localStorage.setItem(key, JSON.stringify(state));
    } catch {
      // quota exceeded or storage disabled
    }
  }, [key, state]);
  return [state, setState];
}

function dueLabel(due) {
  if (!due) return null;
  const today = todayPlus(0);
  if (due === today) return { text: 'Today', className: 'text-emerald-600' };
  if (due < today) return { text: 'Overdue', className: 'text-rose-600' };
  return { text: new Date(due + 'T00:00:00').toLocaleDateString(undefined, { month: 'short', day: 'numeric' }), className: 'text-slate-500' };
}

function TaskRow({ task, onToggle, onDelete, onRename }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(task.title);
  const inputRef = useRef(null);

  useEffect(() => {
    if (editing && inputRef.current) inputRef.current.focus();
  }, [editing]);

  const commit = () => {
    const value = draft.trim();
    if (value) onRename(task.id, value);
    else setDraft(task.title);
    setEditing(false);
  };

  const due = dueLabel(task.due);

  return (
    <li className="group flex items-center gap-3 px-4 py-3 bg-white rounded-lg border border-slate-200 hover:border-slate-300">
      <button
        onClick={() => onToggle(task.id)}
        className={`w-5 h-5 rounded-full border-2 flex items-center justify-center ${task.done ? 'bg-indigo-600 border-indigo-600 text-white' : 'border-slate-300'}`}
        aria-label={task.done ? 'Mark as not done' : 'Mark as done'}
      >
        {task.done && <Check className="w-3 h-3" />}
      </button>
      <div className="flex-1 min-w-0">
        {editing ? (
          <input
            ref={inputRef}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commit();
              if (e.key === 'Escape') { setDraft(task.title); setEditing(false); }
            }}
            className="w-full border-b border-indigo-400 outline-none"
          />
        ) : (
          <p className={`truncate ${task.done ? 'line-through text-slate-400' : 'text-slate-800'}`} onDoubleClick={() => setEditing(true)}>{task.title}</p>
        )}
        <div className="flex items-center gap-3 text-xs mt-0.5">
          <span className="text-slate-400">{task.project}</span>
          {due && <span className={`flex items-center gap-1 ${due.className}`}><Calendar className="w-3 h-3" />{due.text}</span>}
        </div>
      </div>
      <span className={`text-xs px-2 py-0.5 rounded-full ${PRIORITIES[task.priority].className}`}>{PRIORITIES[task.priority].label}</span>
      <button onClick={() => setEditing(true)} className="opacity-0 group-hover:opacity-100 text-slate-400 hover:text-slate-700" aria-label="Edit">
        <Pencil className="w-4 h-4" />
      </button>
      <button onClick={() => onDelete(task.id)} className="opacity-0 group-hover:opacity-100 text-slate-400 hover:text-rose-600" aria-label="Delete">
        <Trash2 className="w-4 h-4" />
      </button>
    </li>
  );
}

export default function App() {
  const [tasks, setTasks] = useLocalStorage('tasks-app', SAMPLE);
  const [project, setProject] = useState('All');
  const [filter, setFilter] = useState('active');
  const [search, setSearch] = useState('');
  const [sortBy, setSortBy] = useState('due');
  const [draft, setDraft] = useState({ title: '', project: 'Inbox', priority: 'medium', due: '' });
  const [error, setError] = useState('');

  const counts = useMemo(() => {
    const map = { All: tasks.filter((t) => !t.done).length };
    PROJECTS.forEach((p) => { map[p] = tasks.filter((t) => t.project === p && !t.done).length; });
    return map;
  }, [tasks]);

  const visible = useMemo(() => {
    const q = search.toLowerCase();
    const order = { high: 0, medium: 1, low: 2 };
    return tasks
      .filter((t) => project === 'All' || t.project === project)
      .filter((t) => (filter === 'all' ? true : filter === 'done' ? t.done : !t.done))
      .filter((t) => t.title.toLowerCase().includes(q))
      .sort((a, b) => {
        if (sortBy === 'priority') return order[a.priority] - order[b.priority];
        if (sortBy === 'title') return a.title.localeCompare(b.title);
        return (a.due || '9999').localeCompare(b.due || '9999');
      });
  }, [tasks, project, filter, search, sortBy]);

  const completion = tasks.length ? Math.round((tasks.filter((t) => t.done).length / tasks.length) * 100) : 0;

  const addTask = (e) => {
    e.preventDefault();
    const title = draft.title.trim();
    if (!title) return setError('Task title cannot be empty.');
    if (title.length > 120) return setError('Keep the title under 120 characters.');
    if (draft.due && draft.due < todayPlus(-365)) return setError('That due date is too far in the past.');
    setTasks((prev) => [{ ...draft, title, id: Date.now(), done: false }, ...prev]);
    setDraft((d) => ({ ...d, title: '', due: '' }));
    setError('');
    return undefined;
  };

  const toggle = (id) => setTasks((prev) => prev.map((t) => (t.id === id ? { ...t, done: !t.done } : t)));
  const remove = (id) => setTasks((prev) => prev.filter((t) => t.id !== id));
  const rename = (id, title) => setTasks((prev) => prev.map((t) => (t.id === id ? { ...t, title } : t)));
  const clearDone = () => setTasks((prev) => prev.filter((t) => !t.done));

  return (
    <div className="min-h-screen bg-slate-50 flex">
      <aside className="w-60 border-r border-slate-200 bg-white p-4">
        <h1 className="text-xl font-bold text-slate-900 flex items-center gap-2 mb-6"><ListTodo className="w-5 h-5 text-indigo-600" /> Tasks</h1>
        <nav className="space-y-1">
          {['All', ...PROJECTS].map((p) => (
            <button key={p} onClick={() => setProject(p)}
              className={`w-full flex items-center justify-between px-3 py-2 rounded-lg text-sm ${project === p ? 'bg-indigo-50 text-indigo-700 font-medium' : 'text-slate-600 hover:bg-slate-100'}`}>
              <span className="flex items-center gap-2">{p === 'Inbox' ? <Inbox className="w-4 h-4" /> : <Flag className="w-4 h-4" />}{p}</span>
              <span className="text-xs text-slate-400">{counts[p]}</span>
            </button>
          ))}
        </nav>
        <div className="mt-8">
          <p className="text-xs text-slate-500 mb-1">Overall progress</p>
          <div className="h-2 bg-slate-100 rounded-full"><div className="h-2 bg-indigo-500 rounded-full" style={{ width: `${completion}%` }} /></div>
          <p className="text-xs text-slate-500 mt-1">{completion}% complete</p>
        </div>
      </aside>

      <main className="flex-1 max-w-3xl mx-auto p-8">
        <form onSubmit={addTask} className="bg-white border border-slate-200 rounded-xl p-4 mb-6 shadow-sm">
          <div className="flex gap-2">
            <input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} placeholder="Add a task…" className="flex-1 px-3 py-2 border border-slate-200 rounded-lg outline-none focus:border-indigo-400" />
            <button className="bg-indigo-600 hover:bg-indigo-700 text-white px-4 rounded-lg flex items-center gap-1"><Plus className="w-4 h-4" />Add</button>
          </div>
          <div className="flex gap-2 mt-3 text-sm">
            <select value={draft.project} onChange={(e) => setDraft({ ...draft, project: e.target.value })} className="border border-slate-200 rounded-lg px-2 py-1">
              {PROJECTS.map((p) => <option key={p}>{p}</option>)}
            </select>
            <select value={draft.priority} onChange={(e) => setDraft({ ...draft, priority: e.target.value })} className="border border-slate-200 rounded-lg px-2 py-1">
              {Object.entries(PRIORITIES).map(([k, v]) => <option key={k} value={k}>{v.label} priority</option>)}
            </select>
            <input type="date" value={draft.due} onChange={(e) => setDraft({ ...draft, due: e.target.value })} className="border border-slate-200 rounded-lg px-2 py-1" />
          </div>
          {error && <p className="text-sm text-rose-600 mt-2">{error}</p>}
        </form>

        <div className="flex items-center gap-3 mb-4">
          <div className="relative flex-1">
            <Search className="w-4 h-4 absolute left-3 top-2.5 text-slate-400" />
            <input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search tasks" className="w-full pl-9 pr-3 py-2 rounded-lg border border-slate-200 text-sm" />
          </div>
          <div className="flex bg-white border border-slate-200 rounded-lg text-sm overflow-hidden">
            {['active', 'done', 'all'].map((f) => (
              <button key={f} onClick={() => setFilter(f)} className={`px-3 py-2 capitalize ${filter === f ? 'bg-slate-900 text-white' : 'text-slate-600'}`}>{f}</button>
            ))}
          </div>
          <select value={sortBy} onChange={(e) => setSortBy(e.target.value)} className="border border-slate-200 rounded-lg px-2 py-2 text-sm">
            <option value="due">Sort by due date</option>
            <option value="priority">Sort by priority</option>
            <option value="title">Sort by title</option>
          </select>
        </div>

        {visible.length === 0 ? (
          <div className="text-center py-16 text-slate-400">
            <CircleCheck className="w-10 h-10 mx-auto mb-2" />
            <p>Nothing here. Enjoy the calm.</p>
          </div>
        ) : (
          <ul className="space-y-2">
            {visible.map((t) => <TaskRow key={t.id} task={t} onToggle={toggle} onDelete={remove} onRename={rename} />)}
          </ul>
        )}

        {tasks.some((t) => t.done) && (
          <button onClick={clearDone} className="mt-6 text-sm text-slate-500 hover:text-rose-600">Clear completed tasks</button>
        )}
      </main>
    </div>
  );
}
