// Calendar Scheduler: month view calendar with colour-coded events, day agenda panel and an event form with time validation
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { ChevronLeft, ChevronRight, Plus, Clock, MapPin, Trash2, X } from 'lucide-react';

type EventColor = 'blue' | 'green' | 'purple' | 'orange' | 'pink';

interface CalendarEvent {
  id: number;
  title: string;
  date: string; // YYYY-MM-DD
  start: string; // HH:MM
  end: string;
  location: string;
  color: EventColor;
}

interface Draft {
  title: string;
  date: string;
  start: string;
  end: string;
  location: string;
  color: EventColor;
}

const COLOR_CLASSES: Record<EventColor, { dot: string; chip: string }> = {
  blue: { dot: 'bg-blue-500', chip: 'bg-blue-100 text-blue-800' },
  green: { dot: 'bg-green-500', chip: 'bg-green-100 text-green-800' },
  purple: { dot: 'bg-purple-500', chip: 'bg-purple-100 text-purple-800' },
  orange: { dot: 'bg-orange-500', chip: 'bg-orange-100 text-orange-800' },
  pink: { dot: 'bg-pink-500', chip: 'bg-pink-100 text-pink-800' },
};

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function toKey(d: Date): string {
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${d.getFullYear()}-${m}-${day}`;
}

function addDays(d: Date, n: number): Date {
  const copy = new Date(d);
  copy.setDate(copy.getDate() + n);
  return copy;
}

function buildMonthGrid(year: number, month: number): Date[] {
  const first = new Date(year, month, 1);
  const offset = (first.getDay() + 6) % 7; // Monday-first
  const start = addDays(first, -offset);
  return Array.from({ length: 42 }, (_, i) => addDays(start, i));
}

function minutesOf(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

const today = new Date();
const todayKey = toKey(today);

function seedEvents(): CalendarEvent[] {
  const base = new Date(today.getFullYear(), today.getMonth(), 1);
  const specs: [number, string, string, string, string, EventColor][] = [
    [2, 'Team stand-up', '09:30', '09:45', 'Zoom', 'blue'],
    [4, 'Dentist', '14:00', '15:00', 'Main St Clinic', 'pink'],
    [8, 'Product review', '11:00', '12:30', 'Room 4B', 'purple'],
    [8, 'Gym', '18:00', '19:00', 'Downtown', 'green'],
    [12, 'Quarterly planning', '10:00', '16:00', 'HQ', 'orange'],
    [15, 'Lunch with Mia', '12:30', '13:30', 'Café Nord', 'green'],
    [19, 'Design crit', '15:00', '16:00', 'Room 2A', 'purple'],
    [23, 'Flight to Lisbon', '07:15', '10:40', 'Airport T2', 'orange'],
    [27, 'Team stand-up', '09:30', '09:45', 'Zoom', 'blue'],
  ];
  return specs.map(([day, title, start, end, location, color], i) => ({
    id: i + 1,
    title,
    date: toKey(addDays(base, day - 1)),
    start,
    end,
    location,
    color,
  }));
}

function validate(d: Draft, events: CalendarEvent[]): string[] {
  const problems: string[] = [];
  if (!d.title.trim()) problems.push('Title is required');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date)) problems.push('Pick a date');
  if (minutesOf(d.end) <= minutesOf(d.start)) problems.push('End time must be after start time');
  const clash = events.find((e) => e.date === d.date && minutesOf(e.start) < minutesOf(d.end) && minutesOf(d.start) < minutesOf(e.end));
  if (clash) problems.push(`Overlaps with "${clash.title}" (${clash.start}–${clash.end})`);
  return problems;
}

export default function App() {
  const [cursor, setCursor] = useState(() => new Date(today.getFullYear(), today.getMonth(), 1));
  const [selected, setSelected] = useState(todayKey);
  const [events, setEvents] = useState<CalendarEvent[]>(seedEvents);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [colorFilter, setColorFilter] = useState<EventColor | 'all'>('all');

  const grid = useMemo(() => buildMonthGrid(cursor.getFullYear(), cursor.getMonth()), [cursor]);

  const eventsByDay = useMemo(() => {
    const map = new Map<string, CalendarEvent[]>();
    events
      .filter((e) => colorFilter === 'all' || e.color === colorFilter)
      .forEach((e) => {
        const list = map.get(e.date) ?? [];
        list.push(e);
        map.set(e.date, list);
      });
    map.forEach((list) => list.sort((a, b) => minutesOf(a.start) - minutesOf(b.start)));
    return map;
  }, [events, colorFilter]);

  const selectedEvents = eventsByDay.get(selected) ?? [];
  const monthLabel = cursor.toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  const upcoming = useMemo(
    () => events.filter((e) => e.date >= todayKey).sort((a, b) => (a.date + a.start).localeCompare(b.date + b.start)).slice(0, 4),
    [events],
  );

  const shiftMonth = (delta: number) => setCursor((c) => new Date(c.getFullYear(), c.getMonth() + delta, 1));

  const openNew = (date: string) => {
    setProblems([]);
    setDraft({ title: '', date, start: '09:00', end: '10:00', location: '', color: 'blue' });
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!draft) return;
    const found = validate(draft, events);
    setProblems(found);
    if (found.length) return;
    setEvents((list) => [...list, { ...draft, title: draft.title.trim(), id: Date.now() }]);
    setSelected(draft.date);
    setDraft(null);
  };

  return (
    <div className="min-h-screen bg-white p-6 text-gray-800">
      <div className="mx-auto flex max-w-6xl gap-6">
        <main className="flex-1">
          <div className="mb-4 flex items-center justify-between">
            <div className="flex items-center gap-2">
              <h1 className="w-52 text-2xl font-bold">{monthLabel}</h1>
              <button onClick={() => shiftMonth(-1)} className="rounded-lg p-2 hover:bg-gray-100" aria-label="Previous month">
                <ChevronLeft size={18} />
              </button>
              <button onClick={() => shiftMonth(1)} className="rounded-lg p-2 hover:bg-gray-100" aria-label="Next month">
                <ChevronRight size={18} />
              </button>
              <button
                onClick={() => {
                  setCursor(new Date(today.getFullYear(), today.getMonth(), 1));
                  setSelected(todayKey);
                }}
                className="rounded-lg border border-gray-200 px-3 py-1.5 text-sm hover:bg-gray-50"
              >
                Today
              </button>
            </div>
            <div className="flex items-center gap-2">
              {(['all', ...Object.keys(COLOR_CLASSES)] as (EventColor | 'all')[]).map((c) => (
                <button
                  key={c}
                  onClick={() => setColorFilter(c)}
                  aria-label={`Filter ${c}`}
                  className={`h-6 rounded-full px-2 text-xs ${colorFilter === c ? 'ring-2 ring-gray-800 ring-offset-1' : ''} ${c === 'all' ? 'bg-gray-100' : COLOR_CLASSES[c].dot}`}
                >
                  {c === 'all' ? 'All' : ''}
                </button>
              ))}
              <button onClick={() => openNew(selected)} className="ml-2 flex items-center gap-1 rounded-lg bg-gray-900 px-3 py-2 text-sm text-white">
                <Plus size={16} /> Event
              </button>
            </div>
          </div>

          <div className="grid grid-cols-7 border-l border-t border-gray-200 text-sm">
            {WEEKDAYS.map((d) => (
              <div key={d} className="border-b border-r border-gray-200 bg-gray-50 py-2 text-center text-xs font-semibold uppercase text-gray-500">
                {d}
              </div>
            ))}
            {grid.map((day) => {
              const key = toKey(day);
              const inMonth = day.getMonth() === cursor.getMonth();
              const dayEvents = eventsByDay.get(key) ?? [];
              return (
                <div
                  key={key}
                  onClick={() => setSelected(key)}
                  onDoubleClick={() => openNew(key)}
                  className={`h-28 cursor-pointer border-b border-r border-gray-200 p-1.5 ${inMonth ? '' : 'bg-gray-50 text-gray-400'} ${selected === key ? 'bg-blue-50' : 'hover:bg-gray-50'}`}
                >
                  <div
                    className={`mb-1 flex h-6 w-6 items-center justify-center rounded-full text-xs ${key === todayKey ? 'bg-red-500 font-bold text-white' : ''}`}
                  >
                    {day.getDate()}
                  </div>
                  <div className="space-y-0.5">
                    {dayEvents.slice(0, 2).map((ev) => (
                      <div key={ev.id} className={`truncate rounded px-1 text-[11px] ${COLOR_CLASSES[ev.color].chip}`}>
                        {ev.start} {ev.title}
                      </div>
                    ))}
                    {dayEvents.length > 2 && <div className="px-1 text-[11px] text-gray-500">+{dayEvents.length - 2} more</div>}
                  </div>
                </div>
              );
            })}
          </div>
          <p className="mt-2 text-xs text-gray-400">Tip: double-click a day to add an event.</p>
        </main>

        <aside className="w-80 shrink-0 space-y-6">
          <section className="rounded-2xl border border-gray-200 p-5">
            <h2 className="font-semibold">
              {new Date(`${selected}T00:00:00`).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })}
            </h2>
            {selectedEvents.length === 0 ? (
              <p className="mt-3 text-sm text-gray-500">Nothing scheduled.</p>
            ) : (
              <ul className="mt-3 space-y-3">
                {selectedEvents.map((ev) => (
                  <li key={ev.id} className="group flex gap-3">
                    <span className={`mt-1 h-3 w-3 shrink-0 rounded-full ${COLOR_CLASSES[ev.color].dot}`} />
                    <div className="flex-1">
                      <div className="text-sm font-medium">{ev.title}</div>
                      <div className="flex items-center gap-1 text-xs text-gray-500">
                        <Clock size={12} /> {ev.start} – {ev.end} ({minutesOf(ev.end) - minutesOf(ev.start)} min)
                      </div>
                      {ev.location && (
                        <div className="flex items-center gap-1 text-xs text-gray-500">
                          <MapPin size={12} /> {ev.location}
                        </div>
                      )}
                    </div>
                    <button onClick={() => setEvents((list) => list.filter((x) => x.id !== ev.id))} className="invisible text-gray-400 hover:text-red-500 group-hover:visible" aria-label="Delete event">
                      <Trash2 size={14} />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section className="rounded-2xl border border-gray-200 p-5">
            <h2 className="mb-3 font-semibold">Upcoming</h2>
            <ul className="space-y-2 text-sm">
              {upcoming.map((ev) => (
                <li key={ev.id} className="flex items-center justify-between">
                  <span className="truncate">{ev.title}</span>
                  <span className="text-xs text-gray-500">{ev.date.slice(5)} {ev.start}</span>
                </li>
              ))}
              {upcoming.length === 0 && <li className="text-gray-500">No upcoming events.</li>}
            </ul>
          </section>
        </aside>
      </div>

      {draft && (
        <div className="fixed inset-0 flex items-center justify-center bg-black/30 p-4">
          <form onSubmit={submit} className="w-full max-w-sm space-y-3 rounded-2xl bg-white p-6 shadow-2xl">
            <div className="flex items-center justify-between">
              <h2 className="text-lg font-semibold">New event</h2>
              <button type="button" onClick={() => setDraft(null)} aria-label="Close">
                <X size={18} />
              </button>
            </div>
            <input value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} placeholder="Event title" className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm" />
            <input type="date" value={draft.date} onChange={(e) => setDraft({ ...draft, date: e.target.value })} className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm" />
            <div className="flex gap-2">
              <input type="time" value={draft.start} onChange={(e) => setDraft({ ...draft, start: e.target.value })} className="flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm" />
              <input type="time" value={draft.end} onChange={(e) => setDraft({ ...draft, end: e.target.value })} className="flex-1 rounded-lg border border-gray-300 px-3 py-2 text-sm" />
            </div>
            <input value={draft.location} onChange={(e) => setDraft({ ...draft, location: e.target.value })} placeholder="Location (optional)" className="w-full rounded-lg border border-gray-300 px-3 py-2 text-sm" />
            <div className="flex gap-2">
              {(Object.keys(COLOR_CLASSES) as EventColor[]).map((c) => (
                <button
                  type="button"
                  key={c}
                  onClick={() => setDraft({ ...draft, color: c })}
                  aria-label={c}
                  className={`h-7 w-7 rounded-full ${COLOR_CLASSES[c].dot} ${draft.color === c ? 'ring-2 ring-gray-800 ring-offset-2' : ''}`}
                />
              ))}
            </div>
            {problems.length > 0 && (
              <ul className="rounded-lg bg-red-50 p-3 text-xs text-red-700">
                {problems.map((p) => (
                  <li key={p}>• {p}</li>
                ))}
              </ul>
            )}
            <button type="submit" className="w-full rounded-lg bg-gray-900 py-2 text-sm font-medium text-white">
              Save event
            </button>
          </form>
        </div>
      )}
    </div>
  );
}
