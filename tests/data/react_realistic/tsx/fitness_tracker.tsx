// Fitness Tracker: workout log with activity types, weekly goal ring, calories/minutes charts and a personal-records panel
import { useMemo, useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { BarChart, Bar, LineChart, Line, XAxis, YAxis, Tooltip, Legend, CartesianGrid, ResponsiveContainer } from 'recharts';
import { FaRunning, FaBiking, FaSwimmer, FaDumbbell, FaWalking, FaFire, FaTrophy } from 'react-icons/fa';
import type { IconType } from 'react-icons';

type Activity = 'run' | 'ride' | 'swim' | 'strength' | 'walk';

interface Workout {
  id: number;
  date: string;
  activity: Activity;
  minutes: number;
  distanceKm: number;
  heartRate: number;
}

const ACTIVITIES: Record<Activity, { label: string; icon: IconType; color: string; kcalPerMin: number; hasDistance: boolean }> = {
  run: { label: 'Run', icon: FaRunning, color: '#ef4444', kcalPerMin: 11, hasDistance: true },
  ride: { label: 'Ride', icon: FaBiking, color: '#3b82f6', kcalPerMin: 8, hasDistance: true },
  swim: { label: 'Swim', icon: FaSwimmer, color: '#06b6d4', kcalPerMin: 9, hasDistance: true },
  strength: { label: 'Strength', icon: FaDumbbell, color: '#a855f7', kcalPerMin: 6, hasDistance: false },
  walk: { label: 'Walk', icon: FaWalking, color: '#22c55e', kcalPerMin: 4, hasDistance: true },
};

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function isoDaysAgo(n: number): string {
  const d = new Date();
  d.setDate(d.getDate() - n);
  return d.toISOString().slice(0, 10);
}

const SEED: Workout[] = [
  { id: 1, date: isoDaysAgo(13), activity: 'run', minutes: 32, distanceKm: 5.6, heartRate: 152 },
  { id: 2, date: isoDaysAgo(11), activity: 'strength', minutes: 45, distanceKm: 0, heartRate: 118 },
  { id: 3, date: isoDaysAgo(9), activity: 'ride', minutes: 75, distanceKm: 28.4, heartRate: 138 },
  { id: 4, date: isoDaysAgo(6), activity: 'swim', minutes: 40, distanceKm: 1.8, heartRate: 131 },
  { id: 5, date: isoDaysAgo(5), activity: 'run', minutes: 48, distanceKm: 8.9, heartRate: 158 },
  { id: 6, date: isoDaysAgo(3), activity: 'walk', minutes: 60, distanceKm: 5.1, heartRate: 102 },
  { id: 7, date: isoDaysAgo(2), activity: 'strength', minutes: 50, distanceKm: 0, heartRate: 121 },
  { id: 8, date: isoDaysAgo(1), activity: 'run', minutes: 27, distanceKm: 5.2, heartRate: 161 },
];

const calories = (w: Workout) => Math.round(w.minutes * ACTIVITIES[w.activity].kcalPerMin);

interface FormState {
  activity: Activity;
  date: string;
  minutes: string;
  distanceKm: string;
  heartRate: string;
}

function GoalRing({ value, goal }: { value: number; goal: number }) {
  const pctDone = Math.min(1, value / goal);
  const r = 52;
  const c = 2 * Math.PI * r;
  return (
    <svg width={130} height={130} viewBox="0 0 130 130">
      <circle cx={65} cy={65} r={r} stroke="#e5e7eb" strokeWidth={12} fill="none" />
      <circle
        cx={65}
        cy={65}
        r={r}
        stroke={pctDone >= 1 ? '#22c55e' : '#f97316'}
        strokeWidth={12}
        fill="none"
        strokeLinecap="round"
        strokeDasharray={c}
        strokeDashoffset={c * (1 - pctDone)}
        transform="rotate(-90 65 65)"
      />
      <text x="65" y="62" textAnchor="middle" className="fill-gray-900 text-xl font-bold">
        {value}
      </text>
      <text x="65" y="80" textAnchor="middle" className="fill-gray-500 text-[10px]">
        of {goal} min
      </text>
    </svg>
  );
}

export default function App() {
  const [workouts, setWorkouts] = useState<Workout[]>(SEED);
  const [goal, setGoal] = useState(180);
  const [form, setForm] = useState<FormState>({ activity: 'run', date: isoDaysAgo(0), minutes: '', distanceKm: '', heartRate: '' });
  const [errors, setErrors] = useState<string[]>([]);
  const [activityFilter, setActivityFilter] = useState<Activity | 'all'>('all');

  const week = useMemo(() => {
    const days = Array.from({ length: 7 }, (_, i) => isoDaysAgo(6 - i));
    return days.map((date) => {
      const entries = workouts.filter((w) => w.date === date);
      const dow = (new Date(`${date}T00:00:00`).getDay() + 6) % 7;
      return {
        day: DAY_NAMES[dow],
        minutes: entries.reduce((s, w) => s + w.minutes, 0),
        kcal: entries.reduce((s, w) => s + calories(w), 0),
      };
    });
  }, [workouts]);

  const weekMinutes = week.reduce((s, d) => s + d.minutes, 0);
  const weekKcal = week.reduce((s, d) => s + d.kcal, 0);

  const heartTrend = useMemo(
    () =>
      [...workouts]
        .sort((a, b) => a.date.localeCompare(b.date))
        .map((w) => ({ date: w.date.slice(5), bpm: w.heartRate, pace: ACTIVITIES[w.activity].hasDistance && w.distanceKm > 0 ? Number((w.minutes / w.distanceKm).toFixed(1)) : null })),
    [workouts],
  );

  const records = useMemo(() => {
    const runs = workouts.filter((w) => w.activity === 'run' && w.distanceKm > 0);
    const longest = workouts.reduce<Workout | null>((best, w) => (!best || w.minutes > best.minutes ? w : best), null);
    const fastest = runs.reduce<Workout | null>((best, w) => (!best || w.minutes / w.distanceKm < best.minutes / best.distanceKm ? w : best), null);
    const farthest = workouts.reduce<Workout | null>((best, w) => (!best || w.distanceKm > best.distanceKm ? w : best), null);
    return { longest, fastest, farthest };
  }, [workouts]);

  const listed = workouts.filter((w) => activityFilter === 'all' || w.activity === activityFilter).sort((a, b) => b.date.localeCompare(a.date));

  const onChange = (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setForm((f) => ({ ...f, [e.target.name]: e.target.value }));

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const problems: string[] = [];
    const minutes = Number(form.minutes);
    const distance = form.distanceKm ? Number(form.distanceKm) : 0;
    const hr = Number(form.heartRate);
    if (!Number.isFinite(minutes) || minutes < 1 || minutes > 600) problems.push('Duration must be 1–600 minutes');
    if (ACTIVITIES[form.activity].hasDistance && (!Number.isFinite(distance) || distance <= 0)) problems.push('Distance is required for this activity');
    if (!Number.isFinite(hr) || hr < 40 || hr > 220) problems.push('Average heart rate should be 40–220 bpm');
    if (form.date > isoDaysAgo(0)) problems.push('Date cannot be in the future');
    setErrors(problems);
    if (problems.length) return;
    setWorkouts((ws) => [...ws, { id: Date.now(), date: form.date, activity: form.activity, minutes, distanceKm: distance, heartRate: hr }]);
    setForm((f) => ({ ...f, minutes: '', distanceKm: '', heartRate: '' }));
  };

  return (
    <div className="min-h-screen bg-orange-50/40 p-6">
      <div className="mx-auto max-w-6xl space-y-6">
        <header className="flex items-center justify-between">
          <h1 className="text-2xl font-extrabold text-gray-900">Move</h1>
          <label className="flex items-center gap-2 text-sm text-gray-600">
            Weekly goal
            <input type="range" min={60} max={600} step={30} value={goal} onChange={(e) => setGoal(Number(e.target.value))} />
            <span className="w-16 font-semibold">{goal} min</span>
          </label>
        </header>

        <div className="grid grid-cols-4 gap-6">
          <section className="flex flex-col items-center justify-center rounded-2xl bg-white p-5 shadow-sm">
            <GoalRing value={weekMinutes} goal={goal} />
            <p className="mt-2 flex items-center gap-1 text-sm text-gray-600">
              <FaFire className="text-orange-500" /> {weekKcal.toLocaleString()} kcal this week
            </p>
          </section>

          <section className="col-span-2 rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="mb-3 font-semibold">Last 7 days</h2>
            <div className="h-52">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={week}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="day" tick={{ fontSize: 12 }} />
                  <YAxis yAxisId="min" tick={{ fontSize: 11 }} width={32} />
                  <YAxis yAxisId="kcal" orientation="right" tick={{ fontSize: 11 }} width={40} />
                  <Tooltip />
                  <Legend />
                  <Bar yAxisId="min" dataKey="minutes" name="Minutes" fill="#f97316" radius={[4, 4, 0, 0]} />
                  <Bar yAxisId="kcal" dataKey="kcal" name="kcal" fill="#fdba74" radius={[4, 4, 0, 0]} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </section>

          <section className="rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="mb-3 flex items-center gap-2 font-semibold">
              <FaTrophy className="text-yellow-500" /> Records
            </h2>
            <dl className="space-y-3 text-sm">
              <div>
                <dt className="text-gray-500">Longest session</dt>
                <dd className="font-semibold">{records.longest ? `${records.longest.minutes} min ${ACTIVITIES[records.longest.activity].label.toLowerCase()}` : '—'}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Fastest run pace</dt>
                <dd className="font-semibold">{records.fastest ? `${(records.fastest.minutes / records.fastest.distanceKm).toFixed(2)} min/km` : '—'}</dd>
              </div>
              <div>
                <dt className="text-gray-500">Farthest distance</dt>
                <dd className="font-semibold">{records.farthest && records.farthest.distanceKm > 0 ? `${records.farthest.distanceKm} km` : '—'}</dd>
              </div>
            </dl>
          </section>
        </div>

        <div className="grid grid-cols-3 gap-6">
          <form onSubmit={submit} className="space-y-3 rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="font-semibold">Log a workout</h2>
            <div className="grid grid-cols-5 gap-1">
              {(Object.keys(ACTIVITIES) as Activity[]).map((a) => {
                const Icon = ACTIVITIES[a].icon;
                return (
                  <button
                    type="button"
                    key={a}
                    onClick={() => setForm((f) => ({ ...f, activity: a }))}
                    className={`flex flex-col items-center gap-1 rounded-lg py-2 text-[11px] ${form.activity === a ? 'bg-orange-100 text-orange-700' : 'text-gray-500 hover:bg-gray-100'}`}
                  >
                    <Icon size={18} />
                    {ACTIVITIES[a].label}
                  </button>
                );
              })}
            </div>
            <input name="date" type="date" value={form.date} onChange={onChange} className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm" />
            <div className="grid grid-cols-3 gap-2">
              <input name="minutes" value={form.minutes} onChange={onChange} placeholder="Minutes" className="rounded-lg border border-gray-300 px-3 py-2 text-sm" />
              <input
                name="distanceKm"
                value={form.distanceKm}
                onChange={onChange}
                placeholder="km"
                disabled={!ACTIVITIES[form.activity].hasDistance}
                className="rounded-lg border border-gray-300 px-3 py-2 text-sm disabled:bg-gray-100"
              />
              <input name="heartRate" value={form.heartRate} onChange={onChange} placeholder="Avg bpm" className="rounded-lg border border-gray-300 px-3 py-2 text-sm" />
            </div>
            {errors.length > 0 && (
              <ul className="space-y-0.5 text-xs text-red-600">
                {errors.map((er) => (
                  <li key={er}>{er}</li>
                ))}
              </ul>
            )}
            <button type="submit" className="w-full rounded-lg bg-orange-500 py-2 text-sm font-semibold text-white hover:bg-orange-600">
              Save workout
            </button>
          </form>

          <section className="col-span-2 rounded-2xl bg-white p-5 shadow-sm">
            <h2 className="mb-3 font-semibold">Heart rate and pace</h2>
            <div className="h-56">
              <ResponsiveContainer width="100%" height="100%">
                <LineChart data={heartTrend}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="date" tick={{ fontSize: 11 }} />
                  <YAxis yAxisId="bpm" tick={{ fontSize: 11 }} width={32} domain={[80, 180]} />
                  <YAxis yAxisId="pace" orientation="right" tick={{ fontSize: 11 }} width={32} />
                  <Tooltip />
                  <Legend />
                  <Line yAxisId="bpm" type="monotone" dataKey="bpm" name="Avg bpm" stroke="#ef4444" strokeWidth={2} />
                  <Line yAxisId="pace" type="monotone" dataKey="pace" name="min/km" stroke="#3b82f6" strokeWidth={2} connectNulls />
                </LineChart>
              </ResponsiveContainer>
            </div>
          </section>
        </div>

        <section className="rounded-2xl bg-white p-5 shadow-sm">
          <div className="mb-3 flex items-center justify-between">
            <h2 className="font-semibold">History</h2>
            <select value={activityFilter} onChange={(e) => setActivityFilter(e.target.value as Activity | 'all')} className="rounded-lg border border-gray-300 px-2 py-1 text-sm">
              <option value="all">All activities</option>
              {(Object.keys(ACTIVITIES) as Activity[]).map((a) => (
                <option key={a} value={a}>
                  {ACTIVITIES[a].label}
                </option>
              ))}
            </select>
          </div>
          <ul className="divide-y divide-gray-100">
            {listed.map((w) => {
              const meta = ACTIVITIES[w.activity];
              const Icon = meta.icon;
              return (
                <li key={w.id} className="flex items-center gap-4 py-2 text-sm">
                  <span className="flex h-9 w-9 items-center justify-center rounded-full text-white" style={{ backgroundColor: meta.color }}>
                    <Icon size={16} />
                  </span>
                  <span className="w-24 text-gray-500">{w.date}</span>
                  <span className="flex-1 font-medium">{meta.label}</span>
                  <span className="w-20 text-right">{w.minutes} min</span>
                  <span className="w-20 text-right">{w.distanceKm > 0 ? `${w.distanceKm} km` : '—'}</span>
                  <span className="w-20 text-right text-gray-500">{w.heartRate} bpm</span>
                  <span className="w-20 text-right font-semibold text-orange-600">{calories(w)} kcal</span>
                </li>
              );
            })}
          </ul>
        </section>
      </div>
    </div>
  );
}
