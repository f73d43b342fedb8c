// Todo Lists: multi-list task manager with a persisted generic storage hook, due dates, priorities, filters and animated items
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { motion, AnimatePresence } from 'framer-motion';
import { Plus, Trash2, Check, ListTodo, CalendarDays, Flame, Undo2 } from 'lucide-react';

type Filter = 'all' | 'active' | 'done' | 'overdue';

interface Todo {
  id: string;
  text: string;
  done: boolean;
  due: string | null;
  important: boolean;
  createdAt: number;
}

interface TodoList {
  id: string;
  name: string;
  todos: Todo[];
}

function useLocalStorage<T>(key: string, initial: T): [T, (update: T | ((prev: T) => T)) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const raw = window.localStorage.getItem(key);
      return raw ? (JSON.parse(raw) as T) : initial;
    } catch {
      return initial;
    }
  });

  useEffect(() => {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // quota exceeded or storage disabled: keep working in memory
    }
  }, [key, value]);

  return [value, setValue];
}

const uid = () => Math.random().toString(36).slice(2, 10);

const todayISO = () => new Date().toISOString().slice(0, 10);

const STARTER: TodoList[] = [
  {
    id: 'personal',
    name: 'Personal',
    todos: [
      { id: 'a1', text: 'Book dentist appointment', done: false, due: todayISO(), important: true, createdAt: 1 },
      { id: 'a2', text: 'Buy birthday card for Sam', done: false, due: null, important: false, createdAt: 2 },
      { id: 'a3', text: 'Renew library books', done: true, due: null, important: false, createdAt: 3 },
    ],
  },
  {
    id: 'work',
    name: 'Work',
    todos: [
      { id: 'b1', text: 'Prepare sprint demo', done: false, due: '2024-01-15', important: true, createdAt: 4 },
      { id: 'b2', text: 'Reply to vendor email', done: false, due: null, important: false, createdAt: 5 },
    ],
  },
];

function isOverdue(t: Todo): boolean {
  return !t.done && t.due !== null && t.due < todayISO();
}

export default function App() {
  const [lists, setLists] = useLocalStorage<TodoList[]>('todo-lists', STARTER);
  const [activeId, setActiveId] = useState(() => lists[0]?.id ?? '');
  const [text, setText] = useState('');
  const [due, setDue] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const [newListName, setNewListName] = useState('');
  const [error, setError] = useState('');
  const [lastDeleted, setLastDeleted] = useState<{ listId: string; todo: Todo } | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const active = lists.find((l) => l.id === activeId) ?? lists[0];

  useEffect(() => {
    if (!lastDeleted) return;
    const t = window.setTimeout(() => setLastDeleted(null), 5000);
    return () => window.clearTimeout(t);
  }, [lastDeleted]);

  const updateTodos = useCallback(
    (listId: string, fn: (todos: Todo[]) => Todo[]) => {
      setLists((ls) => ls.map((l) => (l.id === listId ? { ...l, todos: fn(l.todos) } : l)));
    },
    [setLists],
  );

  const visible = useMemo(() => {
    if (!active) return [];
    const filtered = active.todos.filter((t) => {
      if (filter === 'active') return !t.done;
      if (filter === 'done') return t.done;
      if (filter === 'overdue') return isOverdue(t);
      return true;
    });
    return [...filtered].sort((a, b) => Number(a.done) - Number(b.done) || Number(b.important) - Number(a.important) || a.createdAt - b.createdAt);
  }, [active, filter]);

  const counts = useMemo(() => {
    const todos = active?.todos ?? [];
    return { all: todos.length, active: todos.filter((t) => !t.done).length, done: todos.filter((t) => t.done).length, overdue: todos.filter(isOverdue).length };
  }, [active]);

  const addTodo = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = text.trim();
    if (!active) return;
    if (value.length < 2) {
      setError('Tasks need at least 2 characters');
      return;
    }
    if (value.length > 120) {
      setError('Keep it under 120 characters');
      return;
    }
    updateTodos(active.id, (todos) => [...todos, { id: uid(), text: value, done: false, due: due || null, important: value.endsWith('!'), createdAt: Date.now() }]);
    setText('');
    setDue('');
    setError('');
    inputRef.current?.focus();
  };

  const removeTodo = (todo: Todo) => {
    if (!active) return;
    updateTodos(active.id, (todos) => todos.filter((t) => t.id !== todo.id));
    setLastDeleted({ listId: active.id, todo });
  };

  const undo = () => {
    if (!lastDeleted) return;
    updateTodos(lastDeleted.listId, (todos) => [...todos, lastDeleted.todo]);
    setLastDeleted(null);
  };

  const addList = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    const name = newListName.trim();
    if (!name || lists.some((l) => l.name.toLowerCase() === name.toLowerCase())) return;
    const list: TodoList = { id: uid(), name, todos: [] };
    setLists((ls) => [...ls, list]);
    setActiveId(list.id);
    setNewListName('');
  };

  return (
    <div className="flex min-h-screen bg-zinc-50 text-zinc-800">
      <aside className="w-64 border-r border-zinc-200 bg-white p-5">
        <h1 className="mb-6 flex items-center gap-2 text-lg font-bold">
          <ListTodo className="text-blue-600" /> Tasks
        </h1>
        <nav className="space-y-1">
          {lists.map((l) => {
            const open = l.todos.filter((t) => !t.done).length;
            return (
              <button
                key={l.id}
                onClick={() => setActiveId(l.id)}
                className={`flex w-full items-center justify-between rounded-lg px-3 py-2 text-sm ${l.id === active?.id ? 'bg-blue-50 font-semibold text-blue-700' : 'hover:bg-zinc-100'}`}
              >
                {l.name}
                {open > 0 && <span className="text-xs text-zinc-400">{open}</span>}
              </button>
            );
          })}
        </nav>
        <input
          value={newListName}
          onChange={(e) => setNewListName(e.target.value)}
          onKeyDown={addList}
          placeholder="+ New list (Enter)"
          className="mt-4 w-full rounded-lg border border-dashed border-zinc-300 px-3 py-2 text-sm outline-none focus:border-blue-400"
        />
      </aside>

      <main className="flex-1 p-8">
        <div className="mx-auto max-w-2xl">
          <div className="mb-6 flex items-end justify-between">
            <div>
              <h2 className="text-3xl font-bold">{active?.name ?? 'No list'}</h2>
              <p className="text-sm text-zinc-500">
                {counts.active} open · {counts.done} done
                {counts.overdue > 0 && <span className="text-red-600"> · {counts.overdue} overdue</span>}
              </p>
            </div>
            {counts.done > 0 && active && (
              <button onClick={() => updateTodos(active.id, (todos) => todos.filter((t) => !t.done))} className="text-sm text-zinc-500 hover:text-red-600">
                Clear completed
              </button>
            )}
          </div>

          <form onSubmit={addTodo} className="mb-2 flex gap-2">
            <input
              ref={inputRef}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setError('');
              }}
              placeholder="Add a task (end with ! to mark important)"
              className="flex-1 rounded-xl border border-zinc-300 bg-white px-4 py-3 text-sm shadow-sm outline-none focus:border-blue-500"
            />
            <input type="date" value={due} onChange={(e) => setDue(e.target.value)} className="rounded-xl border border-zinc-300 bg-white px-3 text-sm" aria-label="Due date" />
            <button type="submit" className="rounded-xl bg-blue-600 px-4 text-white hover:bg-blue-700" aria-label="Add task">
              <Plus size={20} />
            </button>
          </form>
          {error && <p className="mb-2 text-xs text-red-600">{error}</p>}

          <div className="mb-4 mt-4 flex gap-2">
            {(['all', 'active', 'done', 'overdue'] as Filter[]).map((f) => (
              <button
                key={f}
                onClick={() => setFilter(f)}
                className={`rounded-full px-3 py-1 text-xs font-medium capitalize ${filter === f ? 'bg-zinc-900 text-white' : 'bg-zinc-200 text-zinc-600 hover:bg-zinc-300'}`}
              >
                {f} ({counts[f]})
              </button>
            ))}
          </div>

          <ul className="space-y-2">
            <AnimatePresence initial={false}>
              {visible.map((t) => (
                <motion.li
                  key={t.id}
                  layout
                  initial={{ opacity: 0, x: -20 }}
                  animate={{ opacity: 1, x: 0 }}
                  exit={{ opacity: 0, x: 40 }}
                  className="group flex items-center gap-3 rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-sm"
                >
                  <button
                    onClick={() => active && updateTodos(active.id, (todos) => todos.map((x) => (x.id === t.id ? { ...x, done: !x.done } : x)))}
                    className={`flex h-5 w-5 shrink-0 items-center justify-center rounded-md border ${t.done ? 'border-blue-600 bg-blue-600 text-white' : 'border-zinc-300'}`}
                    aria-label={t.done ? 'Mark as not done' : 'Mark as done'}
                  >
                    {t.done && <Check size={14} />}
                  </button>
                  <span className={`flex-1 text-sm ${t.done ? 'text-zinc-400 line-through' : ''}`}>{t.text}</span>
                  {t.important && !t.done && <Flame size={16} className="text-orange-500" />}
                  {t.due && (
                    <span className={`flex items-center gap-1 text-xs ${isOverdue(t) ? 'font-semibold text-red-600' : 'text-zinc-400'}`}>
                      <CalendarDays size={12} /> {t.due}
                    </span>
                  )}
                  <button onClick={() => removeTodo(t)} className="text-zinc-300 opacity-0 hover:text-red-500 group-hover:opacity-100" aria-label="Delete task">
                    <Trash2 size={16} />
                  </button>
                </motion.li>
              ))}
            </AnimatePresence>
          </ul>
          {visible.length === 0 && <p className="py-12 text-center text-sm text-zinc-400">Nothing here. Enjoy the calm.</p>}
        </div>
      </main>

      <AnimatePresence>
        {lastDeleted && (
          <motion.div
            initial={{ y: 80 }}
            animate={{ y: 0 }}
            exit={{ y: 80 }}
            className="fixed bottom-6 left-1/2 flex -translate-x-1/2 items-center gap-4 rounded-xl bg-zinc-900 px-5 py-3 text-sm text-white shadow-xl"
          >
            Deleted “{lastDeleted.todo.text}”
            <button onClick={undo} className="flex items-center gap-1 font-semibold text-blue-300 hover:text-blue-200">
              <Undo2 size={14} /> Undo
            </button>
          </motion.div>
        )}
      </AnimatePresence>
    </div>
  );
}
