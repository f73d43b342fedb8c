// Project Timesheet: live time tracker with project picker, manual entries with validation, weekly hours chart and billable totals
import { useState, useEffect, useMemo, useReducer, useRef } from 'react';
import { BarChart, Bar, XAxis, YAxis, Tooltip, Legend, ResponsiveContainer, CartesianGrid } from 'recharts';

const PROJECTS = [
  { id: 'web', name: 'Website redesign', client: 'Brightside', rate: 95, color: '#6366f1' },
  { id: 'app', name: 'Mobile app', client: 'Parcelly', rate: 110, color: '#f59e0b' },
  { id: 'ops', name: 'Internal tooling', client: 'In-house', rate: 0, color: '#10b981' },
];

const DAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function mondayOf(date) {
  const d = new Date(date);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d;
}

function isoDay(d) {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function seedEntries() {
  const monday = mondayOf(new Date());
  const rows = [
    [0, 'web', 3.5, 'Homepage wireframes'], [0, 'ops', 1, 'CI cleanup'], [1, 'app', 4, 'Push notification flow'],
    [1, 'web', 2.25, 'Client review call'], [2, 'app', 5.5, 'Offline mode'], [3, 'web', 4, 'Component library'],
    [3, 'ops', 1.5, 'On-call handover'], [4, 'app', 3, 'Bug bash'],
  ];
  return rows.map(([offset, project, hours, note], i) => {
    const d = new Date(monday);
    d.setDate(monday.getDate() + offset);
    return { id: i + 1, date: isoDay(d), project, hours, note, billable: project !== 'ops' };
  });
}

function entriesReducer(state, action) {
  switch (action.type) {
    case 'add':
      return [...state, { ...action.entry, id: Date.now() }];
    case 'remove':
      return state.filter((e) => e.id !== action.id);
    case 'toggleBillable':
      return state.map((e) => (e.id === action.id ? { ...e, billable: !e.billable } : e));
    default:
      return state;
  }
}

function formatDuration(totalSeconds) {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

function useStopwatch() {
  const [running, setRunning] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const startedAt = useRef(0);
  useEffect(() => {
    if (!running) return undefined;
    startedAt.current = Date.now() - elapsed * 1000;
    const id = setInterval(() => setElapsed(Math.floor((Date.now() - startedAt.current) / 1000)), 500);
    return () => clearInterval(id);
    // elapsed is only read when the timer (re)starts
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running]);
  return { running, elapsed, start: () => setRunning(true), pause: () => setRunning(false), reset: () => { setRunning(false); setElapsed(0); } };
}

export default function App() {
  const [entries, dispatch] = useReducer(entriesReducer, undefined, seedEntries);
  const [weekStart, setWeekStart] = useState(() => mondayOf(new Date()));
  const [trackProject, setTrackProject] = useState('web');
  const [trackNote, setTrackNote] = useState('');
  const watch = useStopwatch();
  const [manual, setManual] = useState({ date: isoDay(new Date()), project: 'web', hours: '', note: '', billable: true });
  const [error, setError] = useState('');

  const weekDays = useMemo(() => DAY_NAMES.map((label, i) => {
    const d = new Date(weekStart);
    d.setDate(weekStart.getDate() + i);
    return { label, iso: isoDay(d) };
  }), [weekStart]);

  const weekEntries = useMemo(() => entries.filter((e) => e.date >= weekDays[0].iso && e.date <= weekDays[6].iso).sort((a, b) => a.date.localeCompare(b.date)), [entries, weekDays]);

  const chartData = useMemo(() => weekDays.map((d) => {
    const row = { day: d.label };
    PROJECTS.forEach((p) => {
      row[p.id] = weekEntries.filter((e) => e.date === d.iso && e.project === p.id).reduce((s, e) => s + e.hours, 0);
    });
    return row;
  }), [weekDays, weekEntries]);

  const totals = useMemo(() => {
    const hours = weekEntries.reduce((s, e) => s + e.hours, 0);
    const billableHours = weekEntries.filter((e) => e.billable).reduce((s, e) => s + e.hours, 0);
    const amount = weekEntries.filter((e) => e.billable).reduce((s, e) => s + e.hours * (PROJECTS.find((p) => p.id === e.project)?.rate || 0), 0);
    const perProject = PROJECTS.map((p) => ({ ...p, hours: weekEntries.filter((e) => e.project === p.id).reduce((s, e) => s + e.hours, 0) }));
    return { hours, billableHours, amount, perProject };
  }, [weekEntries]);

  const stopAndLog = () => {
    const hours = Math.round((watch.elapsed / 3600) * 4) / 4;
    if (hours < 0.25) { setError('Track at least 15 minutes before logging'); return; }
    dispatch({ type: 'add', entry: { date: isoDay(new Date()), project: trackProject, hours, note: trackNote.trim() || 'Tracked session', billable: trackProject !== 'ops' } });
    watch.reset();
    setTrackNote('');
    setError('');
  };

  const addManual = (e) => {
    e.preventDefault();
    const hours = Number(manual.hours);
    if (!manual.date) return setError('Pick a date');
    if (!(hours > 0) || hours > 16) return setError('Hours must be between 0 and 16');
    if (Math.round(hours * 4) !== hours * 4) return setError('Use quarter-hour increments (e.g. 1.25)');
    const dayTotal = entries.filter((x) => x.date === manual.date).reduce((s, x) => s + x.hours, 0);
    if (dayTotal + hours > 24) return setError('That would exceed 24 hours on this day');
    dispatch({ type: 'add', entry: { ...manual, hours, note: manual.note.trim() || 'Manual entry' } });
    setManual((m) => ({ ...m, hours: '', note: '' }));
    setError('');
    return undefined;
  };

  const shiftWeek = (delta) => setWeekStart((w) => { const d = new Date(w); d.setDate(d.getDate() + delta * 7); return d; });
  const project = (id) => PROJECTS.find((p) => p.id === id) || PROJECTS[0];

  return (
    <div className="min-h-screen bg-gray-50 text-gray-800 p-8">
      <div className="max-w-6xl mx-auto space-y-6">
        <div className="flex items-center justify-between">
          <h1 className="text-2xl font-bold">Timesheet</h1>
          <div className="flex items-center gap-2 text-sm">
            <button onClick={() => shiftWeek(-1)} className="px-3 py-1.5 rounded-lg border border-gray-300 bg-white">‹ Prev</button>
            <span className="font-medium w-48 text-center">Week of {weekStart.toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' })}</span>
            <button onClick={() => shiftWeek(1)} className="px-3 py-1.5 rounded-lg border border-gray-300 bg-white">Next ›</button>
          </div>
        </div>

        <div className="bg-white rounded-xl shadow-sm p-5 flex items-center gap-4">
          <span className={`font-mono text-3xl w-40 ${watch.running ? 'text-indigo-600' : 'text-gray-700'}`}>{formatDuration(watch.elapsed)}</span>
          <select value={trackProject} onChange={(e) => setTrackProject(e.target.value)} className="border border-gray-300 rounded-lg px-3 py-2 text-sm">
            {PROJECTS.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </select>
          <input value={trackNote} onChange={(e) => setTrackNote(e.target.value)} placeholder="What are you working on?" className="flex-1 border border-gray-300 rounded-lg px-3 py-2 text-sm" />
          {watch.running ? (
            <button onClick={watch.pause} className="px-4 py-2 rounded-lg bg-amber-500 text-white text-sm font-semibold">Pause</button>
          ) : (
            <button onClick={watch.start} className="px-4 py-2 rounded-lg bg-indigo-600 text-white text-sm font-semibold">{watch.elapsed ? 'Resume' : 'Start'}</button>
          )}
          <button onClick={stopAndLog} disabled={watch.elapsed === 0} className="px-4 py-2 rounded-lg border border-gray-300 text-sm disabled:opacity-40">Stop &amp; log</button>
        </div>

        <div className="grid grid-cols-4 gap-4">
          <div className="bg-white rounded-xl shadow-sm p-4"><p className="text-xs text-gray-500">Total hours</p><p className="text-2xl font-bold">{totals.hours.toFixed(2)}</p></div>
          <div className="bg-white rounded-xl shadow-sm p-4"><p className="text-xs text-gray-500">Billable hours</p><p className="text-2xl font-bold">{totals.billableHours.toFixed(2)}</p></div>
          <div className="bg-white rounded-xl shadow-sm p-4"><p className="text-xs text-gray-500">Billable amount</p><p className="text-2xl font-bold text-emerald-600">${totals.amount.toLocaleString()}</p></div>
          <div className="bg-white rounded-xl shadow-sm p-4"><p className="text-xs text-gray-500">Utilisation (40h)</p><p className="text-2xl font-bold">{Math.round((totals.billableHours / 40) * 100)}%</p></div>
        </div>

        <div className="grid grid-cols-3 gap-6">
          <div className="col-span-2 bg-white rounded-xl shadow-sm p-5">
            <h2 className="font-semibold mb-3">Hours per day</h2>
            <div className="h-64">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={chartData}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e5e7eb" />
                  <XAxis dataKey="day" tick={{ fontSize: 12 }} />
                  <YAxis tick={{ fontSize: 12 }} width={30} />
                  <Tooltip formatter={(v) => `${v} h`} />
                  <Legend />
                  {PROJECTS.map((p) => <Bar key={p.id} dataKey={p.id} name={p.name} stackId="hours" fill={p.color} />)}
                </BarChart>
              </ResponsiveContainer>
            </div>
          </div>
          <div className="bg-white rounded-xl shadow-sm p-5">
            <h2 className="font-semibold mb-3">By project</h2>
            <ul className="space-y-3 text-sm">
              {totals.perProject.map((p) => (
                <li key={p.id}>
                  <div className="flex justify-between"><span className="flex items-center gap-2"><span className="w-2.5 h-2.5 rounded-full" style={{ background: p.color }} />{p.name}</span><span>{p.hours.toFixed(2)} h</span></div>
                  <p className="text-xs text-gray-400 ml-4">{p.client}{p.rate ? ` · $${p.rate}/h` : ' · non-billable'}</p>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="bg-white rounded-xl shadow-sm p-5">
          <form onSubmit={addManual} className="flex items-center gap-2 mb-4 text-sm">
            <input type="date" value={manual.date} onChange={(e) => setManual({ ...manual, date: e.target.value })} className="border border-gray-300 rounded-lg px-2 py-1.5" />
            <select value={manual.project} onChange={(e) => setManual({ ...manual, project: e.target.value, billable: e.target.value !== 'ops' })} className="border border-gray-300 rounded-lg px-2 py-1.5">
              {PROJECTS.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
            </select>
            <input value={manual.hours} onChange={(e) => setManual({ ...manual, hours: e.target.value })} placeholder="Hours" inputMode="decimal" className="w-20 border border-gray-300 rounded-lg px-2 py-1.5" />
            <input value={manual.note} onChange={(e) => setManual({ ...manual, note: e.target.value })} placeholder="Note" className="flex-1 border border-gray-300 rounded-lg px-2 py-1.5" />
            <label className="flex items-center gap-1"><input type="checkbox" checked={manual.billable} onChange={(e) => setManual({ ...manual, billable: e.target.checked })} /> Billable</label>
            <button className="px-3 py-1.5 rounded-lg bg-gray-900 text-white">Add entry</button>
          </form>
          {error && <p className="text-sm text-rose-600 mb-3">{error}</p>}
          <table className="w-full text-sm">
            <thead className="text-left text-gray-500"><tr><th className="py-1 font-medium">Date</th><th className="font-medium">Project</th><th className="font-medium">Note</th><th className="font-medium text-right">Hours</th><th className="font-medium text-center">Billable</th><th /></tr></thead>
            <tbody>
              {weekEntries.map((e) => (
                <tr key={e.id} className="border-t border-gray-100">
                  <td className="py-2">{new Date(e.date + 'T00:00:00').toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' })}</td>
                  <td><span className="inline-flex items-center gap-2"><span className="w-2 h-2 rounded-full" style={{ background: project(e.project).color }} />{project(e.project).name}</span></td>
                  <td className="text-gray-500">{e.note}</td>
                  <td className="text-right font-mono">{e.hours.toFixed(2)}</td>
                  <td className="text-center"><input type="checkbox" checked={e.billable} onChange={() => dispatch({ type: 'toggleBillable', id: e.id })} aria-label="Billable" /></td>
                  <td className="text-right"><button onClick={() => dispatch({ type: 'remove', id: e.id })} className="text-gray-300 hover:text-rose-600" aria-label="Delete entry">✕</button></td>
                </tr>
              ))}
              {weekEntries.length === 0 && <tr><td colSpan={6} className="py-8 text-center text-gray-400">No time logged this week.</td></tr>}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
