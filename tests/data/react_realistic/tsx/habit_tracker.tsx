// Habit Tracker: daily habit check-ins with a contribution-style heatmap, streak counters, weekday completion chart and habit editor
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { BarChart, Bar, XAxis, YAxis, Tooltip, CartesianGrid, ResponsiveContainer } from 'recharts';

interface Habit {
  id: number;
  name: string;
  emoji: string;
  color: string;
  targetPerWeek: number;
  log: Set<string>;
}

const DAYS_SHOWN = 84; // 12 weeks
const WEEKDAY_LABELS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const PALETTE = ['#22c55e', '#3b82f6', '#a855f7', '#f97316', '#ec4899', '#14b8a6'];

function dayKey(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function lastNDays(n: number): Date[] {
  const out: Date[] = [];
  const base = new Date();
  base.setHours(0, 0, 0, 0);
  for (let i = n - 1; i >= 0; i--) {
    const d = new Date(base);
    d.setDate(base.getDate() - i);
    out.push(d);
  }
  return out;
}

function randomLog(probability: number, seed: number): Set<string> {
  let s = seed;
  const rnd = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  const set = new Set<string>();
  lastNDays(DAYS_SHOWN).forEach((d, i) => {
    if (i < DAYS_SHOWN - 1 && rnd() < probability) set.add(dayKey(d));
  });
  return set;
}

function currentStreak(log: Set<string>, days: Date[]): number {
  let streak = 0;
  for (let i = days.length - 1; i >= 0; i--) {
    const k = dayKey(days[i]);
    if (log.has(k)) streak++;
    else if (i === days.length - 1) continue; // today not done yet does not break the streak
    else break;
  }
  return streak;
}

function longestStreak(log: Set<string>, days: Date[]): number {
  let best = 0;
  let run = 0;
  days.forEach((d) => {
    if (log.has(dayKey(d))) {
      run++;
      best = Math.max(best, run);
    } else run = 0;
  });
  return best;
}

const INITIAL: Habit[] = [
  { id: 1, name: 'Read 20 pages', emoji: '📚', color: PALETTE[0], targetPerWeek: 5, log: randomLog(0.7, 11) },
  { id: 2, name: 'Morning run', emoji: '🏃', color: PALETTE[1], targetPerWeek: 3, log: randomLog(0.45, 23) },
  { id: 3, name: 'Meditate', emoji: '🧘', color: PALETTE[2], targetPerWeek: 7, log: randomLog(0.6, 37) },
  { id: 4, name: 'No sugar', emoji: '🍏', color: PALETTE[3], targetPerWeek: 6, log: randomLog(0.5, 41) },
];

export default function App() {
  const [habits, setHabits] = useState<Habit[]>(INITIAL);
  const [selectedId, setSelectedId] = useState(1);
  const [name, setName] = useState('');
  const [emoji, setEmoji] = useState('✨');
  const [target, setTarget] = useState(5);
  const [formError, setFormError] = useState('');

  const days = useMemo(() => lastNDays(DAYS_SHOWN), []);
  const todayKey = dayKey(days[days.length - 1]);
  const thisWeek = days.slice(-7);

  const selected = habits.find((h) => h.id === selectedId) ?? habits[0];

  const weekdayStats = useMemo(() => {
    if (!selected) return [];
    const counts = WEEKDAY_LABELS.map((day) => ({ day, done: 0, total: 0 }));
    days.forEach((d) => {
      const idx = (d.getDay() + 6) % 7;
      counts[idx].total++;
      if (selected.log.has(dayKey(d))) counts[idx].done++;
    });
    return counts.map((c) => ({ day: c.day, rate: c.total ? Math.round((c.done / c.total) * 100) : 0 }));
  }, [selected, days]);

  const toggle = (habitId: number, key: string) => {
    setHabits((hs) =>
      hs.map((h) => {
        if (h.id !== habitId) return h;
        const log = new Set(h.log);
        if (log.has(key)) log.delete(key);
        else log.add(key);
        return { ...h, log };
      }),
    );
  };

  const addHabit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 2) {
      setFormError('Name your habit (2+ characters)');
      return;
    }
    if (habits.some((h) => h.name.toLowerCase() === trimmed.toLowerCase())) {
      setFormError('You already track that habit');
      return;
    }
    const habit: Habit = { id: Date.now(), name: trimmed, emoji: emoji || '✨', color: PALETTE[habits.length % PALETTE.length], targetPerWeek: target, log: new Set() };
    setHabits((hs) => [...hs, habit]);
    setSelectedId(habit.id);
    setName('');
    setFormError('');
  };

  // group days into week columns for the heatmap (Monday-first)
  const weeks = useMemo(() => {
    const cols: (Date | null)[][] = [];
    const firstOffset = (days[0].getDay() + 6) % 7;
    const padded: (Date | null)[] = [...Array.from({ length: firstOffset }, () => null), ...days];
    for (let i = 0; i < padded.length; i += 7) cols.push(padded.slice(i, i + 7));
    return cols;
  }, [days]);

  return (
    <div className="min-h-screen bg-stone-100 p-8 text-stone-800">
      <div className="mx-auto max-w-6xl">
        <h1 className="mb-6 text-3xl font-black">Habits</h1>
        <div className="grid grid-cols-3 gap-6">
          <section className="col-span-2 rounded-2xl bg-white p-6 shadow-sm">
            <div className="mb-4 flex items-center justify-between">
              <h2 className="font-semibold">This week</h2>
              <span className="text-xs text-stone-400">Click a circle to check in</span>
            </div>
            <table className="w-full">
              <thead>
                <tr className="text-xs text-stone-400">
                  <th className="pb-2 text-left font-medium">Habit</th>
                  {thisWeek.map((d) => (
                    <th key={dayKey(d)} className="pb-2 font-medium">
                      {WEEKDAY_LABELS[(d.getDay() + 6) % 7]}
                      <div className={dayKey(d) === todayKey ? 'font-bold text-stone-900' : ''}>{d.getDate()}</div>
                    </th>
                  ))}
                  <th className="pb-2 font-medium">Goal</th>
                  <th className="pb-2 font-medium">Streak</th>
                </tr>
              </thead>
              <tbody>
                {habits.map((h) => {
                  const doneThisWeek = thisWeek.filter((d) => h.log.has(dayKey(d))).length;
                  return (
                    <tr key={h.id} className={`cursor-pointer ${h.id === selected?.id ? 'bg-stone-50' : ''}`} onClick={() => setSelectedId(h.id)}>
                      <td className="py-2 text-sm font-medium">
                        <span className="mr-2">{h.emoji}</span>
                        {h.name}
                      </td>
                      {thisWeek.map((d) => {
                        const k = dayKey(d);
                        const done = h.log.has(k);
                        return (
                          <td key={k} className="py-2 text-center">
                            <button
                              onClick={(e) => {
                                e.stopPropagation();
                                toggle(h.id, k);
                              }}
                              aria-label={`${h.name} on ${k}`}
                              className="h-7 w-7 rounded-full border-2 transition"
                              style={{ backgroundColor: done ? h.color : 'transparent', borderColor: h.color }}
                            />
                          </td>
                        );
                      })}
                      <td className="py-2 text-center text-sm">
                        <span className={doneThisWeek >= h.targetPerWeek ? 'font-bold text-green-600' : 'text-stone-500'}>
                          {doneThisWeek}/{h.targetPerWeek}
                        </span>
                      </td>
                      <td className="py-2 text-center text-sm font-semibold">🔥 {currentStreak(h.log, days)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>

          <form onSubmit={addHabit} className="space-y-3 rounded-2xl bg-white p-6 shadow-sm">
            <h2 className="font-semibold">New habit</h2>
            <div className="flex gap-2">
              <input value={emoji} onChange={(e) => setEmoji(e.target.value.slice(0, 2))} className="w-14 rounded-lg border border-stone-300 px-2 py-2 text-center" aria-label="Emoji" />
              <input
                value={name}
                onChange={(e) => {
                  setName(e.target.value);
                  setFormError('');
                }}
                placeholder="e.g. Drink water"
                className="flex-1 rounded-lg border border-stone-300 px-3 py-2 text-sm"
              />
            </div>
            <label className="block text-sm">
              Target: <span className="font-semibold">{target}× per week</span>
              <input type="range" min={1} max={7} value={target} onChange={(e) => setTarget(Number(e.target.value))} className="mt-1 w-full" />
            </label>
            {formError && <p className="text-xs text-red-600">{formError}</p>}
            <button type="submit" className="w-full rounded-lg bg-stone-900 py-2 text-sm font-semibold text-white">
              Add habit
            </button>
          </form>
        </div>

        {selected && (
          <div className="mt-6 grid grid-cols-3 gap-6">
            <section className="col-span-2 rounded-2xl bg-white p-6 shadow-sm">
              <div className="mb-4 flex items-center justify-between">
                <h2 className="font-semibold">
                  {selected.emoji} {selected.name}: last 12 weeks
                </h2>
                <div className="flex gap-4 text-sm text-stone-500">
                  <span>Total: {selected.log.size}</span>
                  <span>Best streak: {longestStreak(selected.log, days)}</span>
                </div>
              </div>
              <div className="flex gap-1">
                <div className="mr-1 flex flex-col gap-1 text-[10px] text-stone-400">
                  {WEEKDAY_LABELS.map((l) => (
                    <span key={l} className="flex h-4 items-center">
                      {l}
                    </span>
                  ))}
                </div>
                {weeks.map((col, ci) => (
                  <div key={ci} className="flex flex-col gap-1">
                    {col.map((d, ri) =>
                      d ? (
                        <button
                          key={dayKey(d)}
                          title={dayKey(d)}
                          onClick={() => toggle(selected.id, dayKey(d))}
                          className="h-4 w-4 rounded-sm"
                          style={{ backgroundColor: selected.log.has(dayKey(d)) ? selected.color : '#e7e5e4' }}
                        />
                      ) : (
                        <span key={`pad-${ri}`} className="h-4 w-4" />
                      ),
                    )}
                  </div>
                ))}
              </div>
            </section>
            <section className="rounded-2xl bg-white p-6 shadow-sm">
              <h2 className="mb-2 font-semibold">Completion by weekday</h2>
              <div className="h-48">
                <ResponsiveContainer width="100%" height="100%">
                  <BarChart data={weekdayStats}>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} />
                    <XAxis dataKey="day" tick={{ fontSize: 11 }} />
                    <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} width={40} />
                    <Tooltip formatter={(v) => `${v}%`} />
                    <Bar dataKey="rate" name="Completion" fill={selected.color} radius={[4, 4, 0, 0]} />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </section>
          </div>
        )}
      </div>
    </div>
  );
}
