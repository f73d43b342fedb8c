// Liftlog Workout Tracker: log sets per exercise, rest timer between sets, personal records and weekly volume charts
import { useState, useEffect, useMemo, useReducer, useRef } from 'react';
import { Dumbbell, Plus, Trash2, Timer, Trophy, TrendingUp, Check, X } from 'lucide-react';
import { LineChart, Line, BarChart, Bar, XAxis, YAxis, Tooltip, ResponsiveContainer, CartesianGrid } from 'recharts';

const EXERCISES = ['Bench press', 'Squat', 'Deadlift', 'Overhead press', 'Barbell row', 'Pull-up'];

const HISTORY = [
  { date: '2024-05-06', exercise: 'Squat', sets: [[100, 5], [100, 5], [100, 5]] },
  { date: '2024-05-06', exercise: 'Bench press', sets: [[70, 5], [70, 5], [70, 4]] },
  { date: '2024-05-08', exercise: 'Deadlift', sets: [[130, 5], [130, 3]] },
  { date: '2024-05-13', exercise: 'Squat', sets: [[105, 5], [105, 5], [105, 4]] },
  { date: '2024-05-13', exercise: 'Bench press', sets: [[72.5, 5], [72.5, 5], [72.5, 5]] },
  { date: '2024-05-15', exercise: 'Deadlift', sets: [[135, 5], [135, 5]] },
  { date: '2024-05-20', exercise: 'Squat', sets: [[107.5, 5], [107.5, 5], [107.5, 5]] },
  { date: '2024-05-20', exercise: 'Bench press', sets: [[75, 5], [75, 4], [75, 4]] },
  { date: '2024-05-22', exercise: 'Overhead press', sets: [[45, 6], [45, 6], [45, 5]] },
  { date: '2024-05-27', exercise: 'Squat', sets: [[110, 5], [110, 5], [110, 3]] },
  { date: '2024-05-27', exercise: 'Bench press', sets: [[75, 5], [75, 5], [75, 5]] },
  { date: '2024-05-29', exercise: 'Deadlift', sets: [[140, 5], [140, 4]] },
];

const oneRepMax = (weight, reps) => Math.round(weight * (1 + reps / 30) * 10) / 10;

function sessionReducer(state, action) {
  switch (action.type) {
    case 'addExercise':
      if (state.some((e) => e.exercise === action.exercise)) return state;
      return [...state, { exercise: action.exercise, sets: [] }];
    case 'addSet':
      return state.map((e) => (e.exercise === action.exercise ? { ...e, sets: [...e.sets, { weight: action.weight, reps: action.reps, id: Date.now() }] } : e));
    case 'removeSet':
      return state.map((e) => (e.exercise === action.exercise ? { ...e, sets: e.sets.filter((s) => s.id !== action.id) } : e));
    case 'removeExercise':
      return state.filter((e) => e.exercise !== action.exercise);
    case 'clear':
      return [];
    default:
      return state;
  }
}

function useCountdown() {
  const [remaining, setRemaining] = useState(0);
  const endRef = useRef(0);
  useEffect(() => {
    if (remaining <= 0) return undefined;
    const id = setInterval(() => {
      const left = Math.max(0, Math.round((endRef.current - Date.now()) / 1000));
      setRemaining(left);
    }, 250);
    return () => clearInterval(id);
  }, [remaining]);
  const start = (seconds) => {
    endRef.current = Date.now() + seconds * 1000;
    setRemaining(seconds);
  };
  return { remaining, start, stop: () => setRemaining(0) };
}

function SetForm({ exercise, onAdd, lastSet }) {
  const [weight, setWeight] = useState(lastSet ? String(lastSet.weight) : '');
  const [reps, setReps] = useState(lastSet ? String(lastSet.reps) : '');
  const [error, setError] = useState('');
  const submit = (e) => {
    e.preventDefault();
    const w = Number(weight);
    const r = Number(reps);
    if (!(w >= 0) || weight === '') return setError('Weight?');
    if (!Number.isInteger(r) || r < 1 || r > 50) return setError('Reps 1–50');
    setError('');
    onAdd(exercise, w, r);
    return undefined;
  };
  return (
    <form onSubmit={submit} className="flex items-center gap-2 mt-2">
      <input value={weight} onChange={(e) => setWeight(e.target.value)} placeholder="kg" inputMode="decimal" className="w-20 border border-zinc-300 rounded px-2 py-1 text-sm" />
      <span className="text-zinc-400 text-sm">×</span>
      <input value={reps} onChange={(e) => setReps(e.target.value)} placeholder="reps" inputMode="numeric" className="w-16 border border-zinc-300 rounded px-2 py-1 text-sm" />
      <button className="bg-orange-500 text-white rounded px-2 py-1 text-sm flex items-center gap-1"><Plus className="w-3 h-3" /> Set</button>
      {error && <span className="text-xs text-rose-600">{error}</span>}
    </form>
  );
}

export default function App() {
  const [session, dispatch] = useReducer(sessionReducer, [{ exercise: 'Squat', sets: [] }]);
  const [history, setHistory] = useState(HISTORY);
  const [picker, setPicker] = useState(EXERCISES[0]);
  const [chartExercise, setChartExercise] = useState('Squat');
  const [restSeconds, setRestSeconds] = useState(90);
  const timer = useCountdown();
  const [saved, setSaved] = useState(false);

  const records = useMemo(() => {
    const map = {};
    history.forEach((h) => h.sets.forEach(([w, r]) => {
      const est = oneRepMax(w, r);
      if (!map[h.exercise] || est > map[h.exercise].est) map[h.exercise] = { est, weight: w, reps: r, date: h.date };
    }));
    return map;
  }, [history]);

  const progression = useMemo(() => history
    .filter((h) => h.exercise === chartExercise)
    .map((h) => ({ date: h.date.slice(5), e1rm: Math.max(...h.sets.map(([w, r]) => oneRepMax(w, r))) })), [history, chartExercise]);

  const weeklyVolume = useMemo(() => {
    const weeks = {};
    history.forEach((h) => {
      const d = new Date(h.date + 'T00:00:00');
      const monday = new Date(d);
      monday.setDate(d.getDate() - ((d.getDay() + 6) % 7));
      const key = monday.toISOString().slice(5, 10);
      weeks[key] = (weeks[key] || 0) + h.sets.reduce((s, [w, r]) => s + w * r, 0);
    });
    return Object.entries(weeks).sort().map(([week, volume]) => ({ week, volume: Math.round(volume) }));
  }, [history]);

  const sessionVolume = session.reduce((s, e) => s + e.sets.reduce((t, x) => t + x.weight * x.reps, 0), 0);
  const sessionSets = session.reduce((s, e) => s + e.sets.length, 0);

  const addSet = (exercise, weight, reps) => {
    dispatch({ type: 'addSet', exercise, weight, reps });
    timer.start(restSeconds);
  };

  const finishWorkout = () => {
    const today = new Date().toISOString().slice(0, 10);
    const entries = session.filter((e) => e.sets.length).map((e) => ({ date: today, exercise: e.exercise, sets: e.sets.map((s) => [s.weight, s.reps]) }));
    if (!entries.length) return;
    setHistory((h) => [...h, ...entries]);
    dispatch({ type: 'clear' });
    timer.stop();
    setSaved(true);
    setTimeout(() => setSaved(false), 3000);
  };

  return (
    <div className="min-h-screen bg-zinc-100 text-zinc-800">
      <header className="bg-zinc-900 text-white px-8 py-4 flex items-center justify-between">
        <h1 className="text-xl font-bold flex items-center gap-2"><Dumbbell className="w-6 h-6 text-orange-400" /> Liftlog</h1>
        <div className="flex items-center gap-4 text-sm">
          <span>{sessionSets} sets · {Math.round(sessionVolume).toLocaleString()} kg today</span>
          {timer.remaining > 0 && (
            <span className="flex items-center gap-1 bg-orange-500 px-3 py-1 rounded-full font-mono">
              <Timer className="w-4 h-4" /> Rest {Math.floor(timer.remaining / 60)}:{String(timer.remaining % 60).padStart(2, '0')}
              <button onClick={timer.stop} aria-label="Skip rest"><X className="w-3 h-3" /></button>
            </span>
          )}
        </div>
      </header>

      <main className="max-w-6xl mx-auto p-8 grid grid-cols-5 gap-6">
        <section className="col-span-3 space-y-4">
          <div className="flex items-center gap-2">
            <select value={picker} onChange={(e) => setPicker(e.target.value)} className="border border-zinc-300 rounded-lg px-3 py-2 bg-white">
              {EXERCISES.map((x) => <option key={x}>{x}</option>)}
            </select>
            <button onClick={() => dispatch({ type: 'addExercise', exercise: picker })} className="bg-zinc-900 text-white rounded-lg px-3 py-2 text-sm flex items-center gap-1"><Plus className="w-4 h-4" /> Add exercise</button>
            <label className="ml-auto text-sm flex items-center gap-2">Rest
              <select value={restSeconds} onChange={(e) => setRestSeconds(Number(e.target.value))} className="border border-zinc-300 rounded px-2 py-1 bg-white">
                {[60, 90, 120, 180].map((s) => <option key={s} value={s}>{s}s</option>)}
              </select>
            </label>
          </div>

          {session.length === 0 && <div className="bg-white rounded-xl p-10 text-center text-zinc-400">Add an exercise to start your session.</div>}

          {session.map((e) => {
            const pr = records[e.exercise];
            const last = e.sets[e.sets.length - 1];
            return (
              <div key={e.exercise} className="bg-white rounded-xl p-5 shadow-sm">
                <div className="flex items-center justify-between">
                  <h2 className="font-semibold">{e.exercise}</h2>
                  <div className="flex items-center gap-3 text-xs text-zinc-500">
                    {pr && <span className="flex items-center gap-1"><Trophy className="w-3 h-3 text-amber-500" /> e1RM {pr.est} kg</span>}
                    <button onClick={() => dispatch({ type: 'removeExercise', exercise: e.exercise })} className="hover:text-rose-600" aria-label="Remove exercise"><Trash2 className="w-4 h-4" /></button>
                  </div>
                </div>
                <ol className="mt-2 space-y-1">
                  {e.sets.map((s, i) => {
                    const isPr = pr ? oneRepMax(s.weight, s.reps) > pr.est : true;
                    return (
                      <li key={s.id} className="flex items-center gap-3 text-sm">
                        <span className="w-6 text-zinc-400">{i + 1}</span>
                        <span className="font-medium">{s.weight} kg × {s.reps}</span>
                        {isPr && <span className="text-[10px] bg-amber-100 text-amber-700 px-1.5 rounded">PR</span>}
                        <Check className="w-4 h-4 text-emerald-500" />
                        <button onClick={() => dispatch({ type: 'removeSet', exercise: e.exercise, id: s.id })} className="ml-auto text-zinc-300 hover:text-rose-500" aria-label="Remove set"><X className="w-3 h-3" /></button>
                      </li>
                    );
                  })}
                </ol>
                <SetForm key={e.sets.length} exercise={e.exercise} onAdd={addSet} lastSet={last} />
              </div>
            );
          })}

          <button onClick={finishWorkout} disabled={sessionSets === 0} className="w-full py-3 rounded-xl bg-orange-500 hover:bg-orange-600 text-white font-semibold disabled:opacity-40">Finish workout</button>
          {saved && <p className="text-center text-emerald-600 text-sm">Workout saved to history.</p>}
        </section>

        <aside className="col-span-2 space-y-4">
          <div className="bg-white rounded-xl p-5 shadow-sm">
            <div className="flex items-center justify-between mb-2">
              <h2 className="font-semibold flex items-center gap-1"><TrendingUp className="w-4 h-4" /> Estimated 1RM</h2>
              <select value={chartExercise} onChange={(e) => setChartExercise(e.target.value)} className="text-sm border border-zinc-300 rounded px-2 py-1">
                {EXERCISES.map((x) => <option key={x}>{x}</option>)}
              </select>
            </div>
            <div className="h-44">
              {progression.length ? (
                <ResponsiveContainer width="100%" height="100%">
                  <LineChart data={progression}>
                    <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
                    <XAxis dataKey="date" tick={{ fontSize: 11 }} />
                    <YAxis domain={['dataMin - 5', 'dataMax + 5']} tick={{ fontSize: 11 }} width={35} />
                    <Tooltip />
                    <Line dataKey="e1rm" stroke="#f97316" strokeWidth={2} />
                  </LineChart>
                </ResponsiveContainer>
              ) : <p className="text-sm text-zinc-400 pt-16 text-center">No history for {chartExercise} yet.</p>}
            </div>
          </div>
          <div className="bg-white rounded-xl p-5 shadow-sm">
            <h2 className="font-semibold mb-2">Weekly volume (kg)</h2>
            <div className="h-44">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={weeklyVolume}>
                  <XAxis dataKey="week" tick={{ fontSize: 11 }} />
                  <YAxis tick={{ fontSize: 11 }} width={45} />
                  <Tooltip />
                  <Bar dataKey="volume" fill="#18181b" radius={[4, 4, 0, 0]} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </div>
          <div className="bg-white rounded-xl p-5 shadow-sm">
            <h2 className="font-semibold mb-2">Personal records</h2>
            <ul className="text-sm divide-y divide-zinc-100">
              {Object.entries(records).map(([name, r]) => (
                <li key={name} className="py-1.5 flex justify-between"><span>{name}</span><span className="text-zinc-500">{r.weight} × {r.reps} ({r.date.slice(5)})</span></li>
              ))}
            </ul>
          </div>
        </aside>
      </main>
    </div>
  );
}
