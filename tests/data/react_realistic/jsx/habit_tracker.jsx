// Habit Tracker: weekly habit grid with streaks, completion chart and saved progress
import { useState, useEffect, useMemo, useCallback } from 'react';
import { Plus, Trash2, Flame, Check, ChevronLeft, ChevronRight, Target } from 'lucide-react';
import { BarChart, Bar, XAxis, YAxis, Tooltip, ResponsiveContainer, CartesianGrid } from 'recharts';

const STORAGE_KEY = 'habit-tracker-v1';
const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const COLORS = ['bg-emerald-500', 'bg-sky-500', 'bg-violet-500', 'bg-amber-500', 'bg-rose-500'];

const SEED_HABITS = [
  { id: 1, name: 'Drink 2L of water', color: 'bg-sky-500', done: {} },
  { id: 2, name: 'Read 20 pages', color: 'bg-violet-500', done: {} },
  { id: 3, name: 'Morning walk', color: 'bg-emerald-500', done: {} },
];

function startOfWeek(date) {
  const d = new Date(date);
  const day = (d.getDay() + 6) % 7;
  d.setDate(d.getDate() - day);
  d.setHours(0, 0, 0, 0);
  return d;
}

function dateKey(date) {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

function addDays(date, n) {
  const d = new Date(date);
  d.setDate(d.getDate() + n);
  return d;
}

function usePersistentState(key, fallback) {
  const [value, setValue] = useState(() => {
    try {
      const raw = window.localStorage.getItem(key);
      return raw ? JSON.parse(raw) : fallback;
    } catch {
      return fallback;
    }
  });
  useEffect(() => {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // storage may be unavailable (private mode); keep state in memory
    }
  }, [key, value]);
  return [value, setValue];
}

function currentStreak(done, today) {
  let streak = 0;
  let cursor = new Date(today);
  while (done[dateKey(cursor)]) {
    streak += 1;
    cursor = addDays(cursor, -1);
  }
  return streak;
}

export default function App() {
  const [habits, setHabits] = usePersistentState(STORAGE_KEY, SEED_HABITS);
  const [weekOffset, setWeekOffset] = useState(0);
  const [newName, setNewName] = useState('');
  const [error, setError] = useState('');

  const today = useMemo(() => new Date(), []);
  const weekStart = useMemo(() => addDays(startOfWeek(today), weekOffset * 7), [today, weekOffset]);
  const weekDays = useMemo(
    () => DAY_NAMES.map((label, i) => {
      const date = addDays(weekStart, i);
      return { label, date, key: dateKey(date), isFuture: date > today };
    }),
    [weekStart, today]
  );

  const toggle = useCallback((habitId, key) => {
    setHabits((prev) =>
      prev.map((h) => {
        if (h.id !== habitId) return h;
        const done = { ...h.done };
        if (done[key]) delete done[key];
        else done[key] = true;
        return { ...h, done };
      })
    );
  }, [setHabits]);

  const addHabit = (e) => {
    e.preventDefault();
    const name = newName.trim();
    if (name.length < 3) {
      setError('Habit name must be at least 3 characters.');
      return;
    }
    if (habits.some((h) => h.name.toLowerCase() === name.toLowerCase())) {
      setError('You already track that habit.');
      return;
    }
    const color = COLORS[habits.length % COLORS.length];
    setHabits((prev) => [...prev, { id: Date.now(), name, color, done: {} }]);
    setNewName('');
    setError('');
  };

  const removeHabit = (id) => setHabits((prev) => prev.filter((h) => h.id !== id));

  const chartData = useMemo(
    () => weekDays.map((d) => ({
      day: d.label,
      completed: habits.filter((h) => h.done[d.key]).length,
    })),
    [weekDays, habits]
  );

  const weekRate = useMemo(() => {
    const possible = habits.length * weekDays.filter((d) => !d.isFuture).length;
    if (!possible) return 0;
    const hits = weekDays.reduce((sum, d) => sum + habits.filter((h) => h.done[d.key]).length, 0);
    return Math.round((hits / possible) * 100);
  }, [habits, weekDays]);

  const best = useMemo(() => {
    let top = null;
    habits.forEach((h) => {
      const s = currentStreak(h.done, today);
      if (!top || s > top.streak) top = { name: h.name, streak: s };
    });
    return top;
  }, [habits, today]);

  const rangeLabel = `${weekDays[0].date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })} – ${weekDays[6].date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}`;

  return (
    <div className="min-h-screen bg-slate-50 text-slate-800">
      <div className="max-w-5xl mx-auto px-6 py-10">
        <header className="flex items-center justify-between mb-8">
          <div>
            <h1 className="text-3xl font-bold flex items-center gap-2">
              <Target className="w-8 h-8 text-emerald-600" /> Habit Tracker
            </h1>
            <p className="text-slate-500 mt-1">Small steps, every day.</p>
          </div>
          <div className="flex items-center gap-2 bg-white rounded-lg shadow-sm px-2 py-1">
            <button onClick={() => setWeekOffset((w) => w - 1)} className="p-2 rounded hover:bg-slate-100" aria-label="Previous week">
              <ChevronLeft className="w-4 h-4" />
            </button>
            <span className="text-sm font-medium w-40 text-center">{rangeLabel}</span>
            <button
              onClick={() => setWeekOffset((w) => Math.min(0, w + 1))}
              disabled={weekOffset === 0}
              className="p-2 rounded hover:bg-slate-100 disabled:opacity-40"
              aria-label="Next week"
            >
              <ChevronRight className="w-4 h-4" />
            </button>
          </div>
        </header>

        <section className="grid grid-cols-3 gap-4 mb-8">
          <div className="bg-white rounded-xl shadow-sm p-5">
            <p className="text-sm text-slate-500">Habits tracked</p>
            <p className="text-3xl font-semibold mt-1">{habits.length}</p>
          </div>
          <div className="bg-white rounded-xl shadow-sm p-5">
            <p className="text-sm text-slate-500">This week</p>
            <p className="text-3xl font-semibold mt-1">{weekRate}%</p>
            <div className="h-2 bg-slate-100 rounded-full mt-3">
              <div className="h-2 bg-emerald-500 rounded-full transition-all" style={{ width: `${weekRate}%` }} />
            </div>
          </div>
          <div className="bg-white rounded-xl shadow-sm p-5">
            <p className="text-sm text-slate-500">Best streak</p>
            <p className="text-3xl font-semibold mt-1 flex items-center gap-2">
              <Flame className="w-7 h-7 text-orange-500" /> {best ? best.streak : 0}
            </p>
            <p className="text-xs text-slate-400 truncate">{best ? best.name : 'No habits yet'}</p>
          </div>
        </section>

        <section className="bg-white rounded-xl shadow-sm overflow-hidden mb-8">
          <table className="w-full">
            <thead>
              <tr className="bg-slate-100 text-sm text-slate-600">
                <th className="text-left px-4 py-3 font-medium">Habit</th>
                {weekDays.map((d) => (
                  <th key={d.key} className={`px-2 py-3 font-medium ${d.key === dateKey(today) ? 'text-emerald-700' : ''}`}>
                    {d.label}
                  </th>
                ))}
                <th className="px-4 py-3 font-medium">Streak</th>
                <th className="px-2" />
              </tr>
            </thead>
            <tbody>
              {habits.length === 0 && (
                <tr>
                  <td colSpan={10} className="text-center text-slate-400 py-10">Add your first habit below.</td>
                </tr>
              )}
              {habits.map((h) => (
                <tr key={h.id} className="border-t border-slate-100">
                  <td className="px-4 py-3">
                    <span className="flex items-center gap-2">
                      <span className={`w-3 h-3 rounded-full ${h.color}`} />
                      {h.name}
                    </span>
                  </td>
                  {weekDays.map((d) => {
                    const checked = Boolean(h.done[d.key]);
                    return (
                      <td key={d.key} className="px-2 py-3 text-center">
                        <button
                          disabled={d.isFuture}
                          onClick={() => toggle(h.id, d.key)}
                          className={`w-9 h-9 rounded-lg inline-flex items-center justify-center transition ${
                            checked ? `${h.color} text-white` : 'bg-slate-100 hover:bg-slate-200'
                          } disabled:opacity-30 disabled:cursor-not-allowed`}
                          aria-label={`${h.name} on ${d.label}`}
                        >
                          {checked && <Check className="w-5 h-5" />}
                        </button>
                      </td>
                    );
                  })}
                  <td className="px-4 py-3 text-center font-semibold">{currentStreak(h.done, today)}</td>
                  <td className="px-2 py-3">
                    <button onClick={() => removeHabit(h.id)} className="p-2 text-slate-400 hover:text-rose-600" aria-label="Delete habit">
                      <Trash2 className="w-4 h-4" />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <div className="grid grid-cols-2 gap-6">
          <form onSubmit={addHabit} className="bg-white rounded-xl shadow-sm p-5">
            <h2 className="font-semibold mb-3">New habit</h2>
            <div className="flex gap-2">
              <input
                value={newName}
                onChange={(e) => { setNewName(e.target.value); if (error) setError(''); }}
                placeholder="e.g. Stretch for 10 minutes"
                className={`flex-1 border rounded-lg px-3 py-2 outline-none focus:ring-2 focus:ring-emerald-400 ${error ? 'border-rose-400' : 'border-slate-200'}`}
              />
              <button type="submit" className="bg-emerald-600 hover:bg-emerald-700 text-white rounded-lg px-4 flex items-center gap-1">
                <Plus className="w-4 h-4" /> Add
              </button>
            </div>
            {error && <p className="text-sm text-rose-600 mt-2">{error}</p>}
          </form>

          <div className="bg-white rounded-xl shadow-sm p-5">
            <h2 className="font-semibold mb-3">Completions per day</h2>
            <div className="h-40">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={chartData}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="day" tick={{ fontSize: 12 }} />
                  <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={24} />
                  <Tooltip />
                  <Bar dataKey="completed" fill="#10b981" radius={[4, 4, 0, 0]} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
