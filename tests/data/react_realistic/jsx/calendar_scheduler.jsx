// Month Calendar Scheduler: month grid with colour-coded events, day agenda, event form with time validation and keyboard navigation
import { useState, useMemo, useEffect, useCallback } from 'react';
import { ChevronLeft, ChevronRight, Plus, Clock, MapPin, Trash2, CalendarDays } from 'lucide-react';

const COLORS = {
  work: 'bg-blue-500',
  personal: 'bg-emerald-500',
  health: 'bg-rose-500',
  social: 'bg-amber-500',
};

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function ymd(d) {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function seedEvents() {
  const now = new Date();
  const at = (offset) => {
    const d = new Date(now);
    d.setDate(d.getDate() + offset);
    return ymd(d);
  };
  return [
    { id: 1, date: at(0), start: '09:30', end: '10:00', title: 'Team stand-up', kind: 'work', location: 'Zoom' },
    { id: 2, date: at(0), start: '18:00', end: '19:00', title: 'Yoga class', kind: 'health', location: 'Studio 4' },
    { id: 3, date: at(2), start: '12:30', end: '13:30', title: 'Lunch with Sam', kind: 'social', location: 'Little Fig' },
    { id: 4, date: at(3), start: '14:00', end: '15:30', title: 'Design review', kind: 'work', location: 'Room B' },
    { id: 5, date: at(-4), start: '10:00', end: '11:00', title: 'Dentist', kind: 'health', location: 'Smile Clinic' },
    { id: 6, date: at(6), start: '19:30', end: '22:00', title: 'Board games night', kind: 'social', location: 'Priya’s place' },
    { id: 7, date: at(9), start: '08:00', end: '09:00', title: 'Pay rent', kind: 'personal', location: '' },
    { id: 8, date: at(3), start: '17:00', end: '17:30', title: 'Call parents', kind: 'personal', location: '' },
  ];
}

function buildMonth(year, month) {
  const first = new Date(year, month, 1);
  const offset = (first.getDay() + 6) % 7;
  const start = new Date(year, month, 1 - offset);
  return Array.from({ length: 42 }, (_, i) => {
    const d = new Date(start);
    d.setDate(start.getDate() + i);
    return d;
  });
}

const EMPTY = { title: '', start: '09:00', end: '10:00', kind: 'work', location: '' };

export default function App() {
  const today = useMemo(() => new Date(), []);
  const [cursor, setCursor] = useState({ year: today.getFullYear(), month: today.getMonth() });
  const [selected, setSelected] = useState(ymd(today));
  const [events, setEvents] = useState(seedEvents);
  const [form, setForm] = useState(EMPTY);
  const [formOpen, setFormOpen] = useState(false);
  const [error, setError] = useState('');
  const [kindFilter, setKindFilter] = useState(Object.keys(COLORS));

  const days = useMemo(() => buildMonth(cursor.year, cursor.month), [cursor]);
  const monthLabel = new Date(cursor.year, cursor.month, 1).toLocaleDateString(undefined, { month: 'long', year: 'numeric' });

  const byDate = useMemo(() => {
    const map = {};
    events.filter((e) => kindFilter.includes(e.kind)).forEach((e) => {
      (map[e.date] = map[e.date] || []).push(e);
    });
    Object.values(map).forEach((list) => list.sort((a, b) => a.start.localeCompare(b.start)));
    return map;
  }, [events, kindFilter]);

  const shiftMonth = useCallback((delta) => {
    setCursor((c) => {
      const d = new Date(c.year, c.month + delta, 1);
      return { year: d.getFullYear(), month: d.getMonth() };
    });
  }, []);

  const moveSelection = useCallback((deltaDays) => {
    const d = new Date(selected + 'T00:00:00');
    d.setDate(d.getDate() + deltaDays);
    setSelected(ymd(d));
    setCursor({ year: d.getFullYear(), month: d.getMonth() });
  }, [selected]);

  useEffect(() => {
    const onKey = (e) => {
      if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 };
      if (moves[e.key]) { e.preventDefault(); moveSelection(moves[e.key]); }
      if (e.key === 'PageUp') shiftMonth(-1);
      if (e.key === 'PageDown') shiftMonth(1);
      if (e.key === 'n') setFormOpen(true);
      if (e.key === 't') { setSelected(ymd(today)); setCursor({ year: today.getFullYear(), month: today.getMonth() }); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [moveSelection, shiftMonth, today]);

  const agenda = byDate[selected] || [];

  const addEvent = (e) => {
    e.preventDefault();
    if (!form.title.trim()) return setError('Title is required');
    if (form.end <= form.start) return setError('End time must be after start time');
    const clash = (byDate[selected] || []).find((x) => form.start < x.end && form.end > x.start);
    if (clash && !window.confirm(`This overlaps with "${clash.title}". Add anyway?`)) return undefined;
    setEvents((prev) => [...prev, { ...form, title: form.title.trim(), id: Date.now(), date: selected }]);
    setForm(EMPTY);
    setFormOpen(false);
    setError('');
    return undefined;
  };

  const toggleKind = (k) => setKindFilter((f) => (f.includes(k) ? f.filter((x) => x !== k) : [...f, k]));
  const upcoming = useMemo(() => events.filter((e) => e.date >= ymd(today)).sort((a, b) => (a.date + a.start).localeCompare(b.date + b.start)).slice(0, 4), [events, today]);

  return (
    <div className="min-h-screen bg-white flex text-gray-800">
      <div className="flex-1 p-6 flex flex-col">
        <header className="flex items-center justify-between mb-4">
          <h1 className="text-2xl font-bold flex items-center gap-2"><CalendarDays className="w-6 h-6 text-blue-600" /> {monthLabel}</h1>
          <div className="flex items-center gap-2">
            {Object.keys(COLORS).map((k) => (
              <button key={k} onClick={() => toggleKind(k)} className={`text-xs capitalize flex items-center gap-1 px-2 py-1 rounded-full border ${kindFilter.includes(k) ? 'border-gray-300' : 'border-transparent opacity-40'}`}>
                <span className={`w-2 h-2 rounded-full ${COLORS[k]}`} />{k}
              </button>
            ))}
            <button onClick={() => { setSelected(ymd(today)); setCursor({ year: today.getFullYear(), month: today.getMonth() }); }} className="ml-4 px-3 py-1.5 text-sm border border-gray-300 rounded-md">Today</button>
            <button onClick={() => shiftMonth(-1)} className="p-1.5 rounded-md hover:bg-gray-100" aria-label="Previous month"><ChevronLeft className="w-5 h-5" /></button>
            <button onClick={() => shiftMonth(1)} className="p-1.5 rounded-md hover:bg-gray-100" aria-label="Next month"><ChevronRight className="w-5 h-5" /></button>
          </div>
        </header>
        <div className="grid grid-cols-7 text-xs font-medium text-gray-500 border-b border-gray-200">
          {WEEKDAYS.map((d) => <div key={d} className="py-2 px-2">{d}</div>)}
        </div>
        <div className="grid grid-cols-7 grid-rows-6 flex-1 border-l border-gray-200">
          {days.map((d) => {
            const key = ymd(d);
            const inMonth = d.getMonth() === cursor.month;
            const isToday = key === ymd(today);
            const list = byDate[key] || [];
            return (
              <button
                key={key}
                onClick={() => setSelected(key)}
                onDoubleClick={() => { setSelected(key); setFormOpen(true); }}
                className={`text-left border-r border-b border-gray-200 p-1.5 min-h-[92px] align-top flex flex-col ${inMonth ? '' : 'bg-gray-50 text-gray-400'} ${selected === key ? 'ring-2 ring-inset ring-blue-500' : ''}`}
              >
                <span className={`text-xs w-6 h-6 flex items-center justify-center rounded-full ${isToday ? 'bg-blue-600 text-white font-bold' : ''}`}>{d.getDate()}</span>
                <div className="mt-1 space-y-0.5 w-full">
                  {list.slice(0, 3).map((ev) => (
                    <div key={ev.id} className={`text-[11px] text-white truncate rounded px-1 ${COLORS[ev.kind]}`}>{ev.start} {ev.title}</div>
                  ))}
                  {list.length > 3 && <div className="text-[11px] text-gray-500">+{list.length - 3} more</div>}
                </div>
              </button>
            );
          })}
        </div>
        <p className="text-xs text-gray-400 mt-2">Arrow keys move the selection · PgUp/PgDn change month · N new event · T today</p>
      </div>

      <aside className="w-80 border-l border-gray-200 p-6 bg-gray-50 flex flex-col gap-6">
        <div>
          <div className="flex items-center justify-between">
            <h2 className="font-semibold">{new Date(selected + 'T00:00:00').toLocaleDateString(undefined, { weekday: 'long', month: 'short', day: 'numeric' })}</h2>
            <button onClick={() => setFormOpen((o) => !o)} className="p-1.5 rounded-md bg-blue-600 text-white" aria-label="Add event"><Plus className="w-4 h-4" /></button>
          </div>
          {formOpen && (
            <form onSubmit={addEvent} className="mt-3 bg-white rounded-lg p-3 shadow-sm space-y-2">
              <input value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} placeholder="Event title" className="w-full border border-gray-300 rounded px-2 py-1.5 text-sm" />
              <div className="flex gap-2">
                <input type="time" value={form.start} onChange={(e) => setForm({ ...form, start: e.target.value })} className="flex-1 border border-gray-300 rounded px-2 py-1 text-sm" />
                <input type="time" value={form.end} onChange={(e) => setForm({ ...form, end: e.target.value })} className="flex-1 border border-gray-300 rounded px-2 py-1 text-sm" />
              </div>
              <input value={form.location} onChange={(e) => setForm({ ...form, location: e.target.value })} placeholder="Location (optional)" className="w-full border border-gray-300 rounded px-2 py-1.5 text-sm" />
              <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value })} className="w-full border border-gray-300 rounded px-2 py-1.5 text-sm capitalize">
                {Object.keys(COLORS).map((k) => <option key={k} value={k}>{k}</option>)}
              </select>
              {error && <p className="text-xs text-rose-600">{error}</p>}
              <div className="flex justify-end gap-2">
                <button type="button" onClick={() => { setFormOpen(false); setError(''); }} className="text-sm px-3 py-1">Cancel</button>
                <button className="text-sm px-3 py-1 bg-blue-600 text-white rounded">Save</button>
              </div>
            </form>
          )}
          <ul className="mt-3 space-y-2">
            {agenda.length === 0 && <li className="text-sm text-gray-400">Nothing scheduled.</li>}
            {agenda.map((ev) => (
              <li key={ev.id} className="bg-white rounded-lg p-3 shadow-sm flex gap-3 group">
                <span className={`w-1 rounded-full ${COLORS[ev.kind]}`} />
                <div className="flex-1">
                  <p className="font-medium text-sm">{ev.title}</p>
                  <p className="text-xs text-gray-500 flex items-center gap-1"><Clock className="w-3 h-3" />{ev.start}–{ev.end}</p>
                  {ev.location && <p className="text-xs text-gray-500 flex items-center gap-1"><MapPin className="w-3 h-3" />{ev.location}</p>}
                </div>
                <button onClick={() => setEvents((prev) => prev.filter((x) => x.id !== ev.id))} className="opacity-0 group-hover:opacity-100 text-gray-400 hover:text-rose-600" aria-label="Delete event"><Trash2 className="w-4 h-4" /></button>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="font-semibold text-sm text-gray-500 uppercase tracking-wide mb-2">Upcoming</h2>
          <ul className="space-y-1 text-sm">
            {upcoming.map((ev) => (
              <li key={ev.id} className="flex items-center gap-2">
                <span className={`w-2 h-2 rounded-full ${COLORS[ev.kind]}`} />
                <span className="text-gray-500 w-14">{ev.date.slice(5)}</span>
                <span className="truncate">{ev.title}</span>
              </li>
            ))}
          </ul>
        </div>
      </aside>
    </div>
  );
}
