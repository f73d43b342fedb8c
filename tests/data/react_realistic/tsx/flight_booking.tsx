// Flight Booking: search form with validation, generated flight results with filters and sorting, seat map selection and booking confirmation with animated steps
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { motion, AnimatePresence } from 'framer-motion';

type Step = 'search' | 'results' | 'seats' | 'confirm';
type CabinClass = 'economy' | 'premium' | 'business';
type SortKey = 'price' | 'duration' | 'departure';

interface SearchForm {
  from: string;
  to: string;
  date: string;
  passengers: number;
  cabin: CabinClass;
}

interface Flight {
  id: string;
  airline: string;
  code: string;
  depart: string;
  arrive: string;
  durationMin: number;
  stops: number;
  price: number;
}

interface Seat {
  id: string;
  row: number;
  letter: string;
  taken: boolean;
  extraLegroom: boolean;
}

const AIRPORTS: Record<string, string> = {
  LHR: 'London Heathrow',
  JFK: 'New York JFK',
  CDG: 'Paris Charles de Gaulle',
  HND: 'Tokyo Haneda',
  SFO: 'San Francisco',
  DXB: 'Dubai',
  SIN: 'Singapore Changi',
};

const AIRLINES = ['Skyline', 'AeroNova', 'BlueJet', 'Polar Air'];
const CABIN_MULTIPLIER: Record<CabinClass, number> = { economy: 1, premium: 1.7, business: 3.4 };
const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'];

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
  return h;
}

function generateFlights(form: SearchForm): Flight[] {
  let seed = hash(form.from + form.to + form.date);
  const rnd = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  return Array.from({ length: 9 }, (_, i) => {
    const departMin = 360 + Math.floor(rnd() * 900);
    const stops = rnd() < 0.45 ? 0 : rnd() < 0.8 ? 1 : 2;
    const durationMin = 180 + Math.floor(rnd() * 360) + stops * 95;
    const arriveMin = departMin + durationMin;
    const fmt = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}${m >= 1440 ? ' +1' : ''}`;
    const airline = AIRLINES[Math.floor(rnd() * AIRLINES.length)];
    return {
      id: `f${i}`,
      airline,
      code: `${airline.slice(0, 2).toUpperCase()}${100 + Math.floor(rnd() * 800)}`,
      depart: fmt(departMin),
      arrive: fmt(arriveMin),
      durationMin,
      stops,
      price: Math.round((220 + rnd() * 480 - stops * 60) * CABIN_MULTIPLIER[form.cabin]),
    };
  });
}

function generateSeats(flightId: string): Seat[] {
  let seed = hash(flightId);
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 4294967296;
  };
  const seats: Seat[] = [];
  for (let row = 1; row <= 14; row++) {
    LETTERS.forEach((letter) => seats.push({ id: `${row}${letter}`, row, letter, taken: rnd() < 0.35, extraLegroom: row === 1 || row === 8 }));
  }
  return seats;
}

const duration = (m: number) => `${Math.floor(m / 60)}h ${m % 60}m`;
const today = new Date().toISOString().slice(0, 10);

const slide = {
  initial: { opacity: 0, x: 40 },
  animate: { opacity: 1, x: 0 },
  exit: { opacity: 0, x: -40 },
};

export default function App() {
  const [step, setStep] = useState<Step>('search');
  const [form, setForm] = useState<SearchForm>({ from: 'LHR', to: 'JFK', date: today, passengers: 1, cabin: 'economy' });
  const [errors, setErrors] = useState<string[]>([]);
  const [maxStops, setMaxStops] = useState(2);
  const [sortKey, setSortKey] = useState<SortKey>('price');
  const [flight, setFlight] = useState<Flight | null>(null);
  const [chosenSeats, setChosenSeats] = useState<string[]>([]);
  const [bookingRef, setBookingRef] = useState('');

  const flights = useMemo(() => (step === 'search' ? [] : generateFlights(form)), [form, step]);
  const visibleFlights = useMemo(() => {
    const list = flights.filter((f) => f.stops <= maxStops);
    return [...list].sort((a, b) => (sortKey === 'price' ? a.price - b.price : sortKey === 'duration' ? a.durationMin - b.durationMin : a.depart.localeCompare(b.depart)));
  }, [flights, maxStops, sortKey]);
  const seats = useMemo(() => (flight ? generateSeats(flight.id) : []), [flight]);

  const seatFee = chosenSeats.reduce((s, id) => s + (seats.find((x) => x.id === id)?.extraLegroom ? 45 : 12), 0);
  const total = flight ? flight.price * form.passengers + seatFee : 0;

  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const problems: string[] = [];
    if (form.from === form.to) problems.push('Origin and destination must differ');
    if (!form.date || form.date < today) problems.push('Choose a departure date from today onwards');
    if (form.passengers < 1 || form.passengers > 6) problems.push('Between 1 and 6 passengers per booking');
    setErrors(problems);
    if (problems.length === 0) setStep('results');
  };

  const toggleSeat = (seat: Seat) => {
    if (seat.taken) return;
    setChosenSeats((list) => (list.includes(seat.id) ? list.filter((s) => s !== seat.id) : list.length < form.passengers ? [...list, seat.id] : [...list.slice(1), seat.id]));
  };

  const confirm = () => {
    setBookingRef(`${form.from}${form.to}-${hash(chosenSeats.join() + Date.now()).toString(36).slice(0, 6).toUpperCase()}`);
    setStep('confirm');
  };

  const steps: Step[] = ['search', 'results', 'seats', 'confirm'];

  return (
    <div className="min-h-screen bg-gradient-to-b from-sky-600 to-sky-100 p-8">
      <div className="mx-auto max-w-4xl">
        <h1 className="mb-2 text-3xl font-black text-white">Fly somewhere</h1>
        <ol className="mb-6 flex gap-2 text-xs font-semibold uppercase tracking-wide">
          {steps.map((s, i) => (
            <li key={s} className={`rounded-full px-3 py-1 ${steps.indexOf(step) >= i ? 'bg-white text-sky-700' : 'bg-white/20 text-white/70'}`}>
              {i + 1}. {s}
            </li>
          ))}
        </ol>

        <AnimatePresence mode="wait">
          {step === 'search' && (
            <motion.form key="search" {...slide} onSubmit={search} className="space-y-4 rounded-3xl bg-white p-8 shadow-xl">
              <div className="grid grid-cols-2 gap-4">
                {(['from', 'to'] as const).map((field) => (
                  <label key={field} className="text-sm font-medium text-gray-600">
                    {field === 'from' ? 'From' : 'To'}
                    <select value={form[field]} onChange={(e) => setForm({ ...form, [field]: e.target.value })} className="mt-1 w-full rounded-xl border border-gray-300 px-3 py-3 text-base text-gray-900">
                      {Object.entries(AIRPORTS).map(([code, name]) => (
                        <option key={code} value={code}>
                          {code} · {name}
                        </option>
                      ))}
                    </select>
                  </label>
                ))}
              </div>
              <div className="grid grid-cols-3 gap-4">
                <label className="text-sm font-medium text-gray-600">
                  Date
                  <input type="date" min={today} value={form.date} onChange={(e) => setForm({ ...form, date: e.target.value })} className="mt-1 w-full rounded-xl border border-gray-300 px-3 py-3 text-gray-900" />
                </label>
                <label className="text-sm font-medium text-gray-600">
                  Passengers
                  <input
                    type="number"
                    min={1}
                    max={6}
                    value={form.passengers}
                    onChange={(e) => setForm({ ...form, passengers: Number(e.target.value) })}
                    className="mt-1 w-full rounded-xl border border-gray-300 px-3 py-3 text-gray-900"
                  />
                </label>
                <label className="text-sm font-medium text-gray-600">
                  Cabin
                  <select value={form.cabin} onChange={(e) => setForm({ ...form, cabin: e.target.value as CabinClass })} className="mt-1 w-full rounded-xl border border-gray-300 px-3 py-3 capitalize text-gray-900">
                    {(Object.keys(CABIN_MULTIPLIER) as CabinClass[]).map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                </label>
              </div>
              {errors.length > 0 && (
                <ul className="rounded-xl bg-red-50 p-3 text-sm text-red-700">
                  {errors.map((er) => (
                    <li key={er}>{er}</li>
                  ))}
                </ul>
              )}
              <div className="flex justify-between">
                <button type="button" onClick={() => setForm({ ...form, from: form.to, to: form.from })} className="rounded-xl border border-gray-300 px-4 py-3 text-sm hover:bg-gray-50">
                  ⇄ Swap
                </button>
                <button type="submit" className="rounded-xl bg-sky-600 px-8 py-3 font-semibold text-white hover:bg-sky-700">
                  Search flights
                </button>
              </div>
            </motion.form>
          )}

          {step === 'results' && (
            <motion.section key="results" {...slide} className="rounded-3xl bg-white p-6 shadow-xl">
              <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
                <div>
                  <h2 className="text-xl font-bold">
                    {form.from} → {form.to}
                  </h2>
                  <p className="text-sm text-gray-500">
                    {form.date} · {form.passengers} passenger{form.passengers > 1 ? 's' : ''} · <span className="capitalize">{form.cabin}</span>
                  </p>
                </div>
                <div className="flex items-center gap-3 text-sm">
                  <select value={maxStops} onChange={(e) => setMaxStops(Number(e.target.value))} className="rounded-lg border border-gray-300 px-2 py-1.5">
                    <option value={0}>Nonstop only</option>
                    <option value={1}>Up to 1 stop</option>
                    <option value={2}>Any stops</option>
                  </select>
                  <select value={sortKey} onChange={(e) => setSortKey(e.target.value as SortKey)} className="rounded-lg border border-gray-300 px-2 py-1.5">
                    <option value="price">Cheapest</option>
                    <option value="duration">Fastest</option>
                    <option value="departure">Earliest</option>
                  </select>
                  <button onClick={() => setStep('search')} className="text-sky-700 hover:underline">
                    Edit search
                  </button>
                </div>
              </div>
              <ul className="space-y-3">
                {visibleFlights.map((f) => (
                  <motion.li key={f.id} layout className="flex items-center gap-6 rounded-2xl border border-gray-200 p-4 hover:border-sky-400">
                    <div className="w-28">
                      <div className="font-semibold">{f.airline}</div>
                      <div className="text-xs text-gray-500">{f.code}</div>
                    </div>
                    <div className="flex flex-1 items-center gap-4">
                      <span className="text-lg font-bold">{f.depart}</span>
                      <div className="flex-1 text-center text-xs text-gray-500">
                        {duration(f.durationMin)}
                        <div className="my-1 h-px bg-gray-300" />
                        {f.stops === 0 ? 'Nonstop' : `${f.stops} stop${f.stops > 1 ? 's' : ''}`}
                      </div>
                      <span className="text-lg font-bold">{f.arrive}</span>
                    </div>
                    <div className="text-right">
                      <div className="text-xl font-black text-sky-700">${f.price}</div>
                      <button
                        onClick={() => {
                          setFlight(f);
                          setChosenSeats([]);
                          setStep('seats');
                        }}
                        className="mt-1 rounded-lg bg-sky-600 px-4 py-1.5 text-sm font-semibold text-white hover:bg-sky-700"
                      >
                        Select
                      </button>
                    </div>
                  </motion.li>
                ))}
                {visibleFlights.length === 0 && <li className="py-10 text-center text-gray-500">No flights with these filters.</li>}
              </ul>
            </motion.section>
          )}

          {step === 'seats' && flight && (
            <motion.section key="seats" {...slide} className="grid grid-cols-3 gap-6 rounded-3xl bg-white p-6 shadow-xl">
              <div className="col-span-2">
                <h2 className="mb-1 text-xl font-bold">Choose {form.passengers === 1 ? 'a seat' : `${form.passengers} seats`}</h2>
                <p className="mb-4 text-xs text-gray-500">Rows 1 and 8 have extra legroom (+$45). Standard seats are $12.</p>
                <div className="mx-auto w-fit rounded-t-[80px] border-4 border-gray-200 px-6 pb-4 pt-10">
                  {Array.from({ length: 14 }, (_, r) => r + 1).map((row) => (
                    <div key={row} className="mb-1.5 flex items-center gap-1.5">
                      {seats
                        .filter((s) => s.row === row)
                        .map((s, i) => {
                          const chosen = chosenSeats.includes(s.id);
                          return (
                            <span key={s.id} className="flex items-center gap-1.5">
                              {i === 3 && <span className="w-6 text-center text-[10px] text-gray-400">{row}</span>}
                              <button
                                onClick={() => toggleSeat(s)}
                                disabled={s.taken}
                                aria-label={`Seat ${s.id}`}
                                className={`h-7 w-7 rounded-md text-[10px] font-semibold ${
                                  s.taken ? 'cursor-not-allowed bg-gray-200 text-gray-400' : chosen ? 'bg-sky-600 text-white' : s.extraLegroom ? 'bg-amber-100 text-amber-800 hover:bg-amber-200' : 'bg-sky-50 text-sky-800 hover:bg-sky-100'
                                }`}
                              >
                                {s.letter}
                              </button>
                            </span>
                          );
                        })}
                    </div>
                  ))}
                </div>
              </div>
              <aside className="space-y-3 rounded-2xl bg-sky-50 p-4 text-sm">
                <h3 className="font-semibold">
                  {flight.airline} {flight.code}
                </h3>
                <p className="text-gray-600">
                  {form.from} {flight.depart} → {form.to} {flight.arrive}
                </p>
                <div className="flex justify-between">
                  <span>Fare × {form.passengers}</span>
                  <span>${flight.price * form.passengers}</span>
                </div>
                <div className="flex justify-between">
                  <span>Seats ({chosenSeats.join(', ') || 'none'})</span>
                  <span>${seatFee}</span>
                </div>
                <div className="flex justify-between border-t border-sky-200 pt-2 text-base font-bold">
                  <span>Total</span>
                  <span>${total}</span>
                </div>
                <button
                  disabled={chosenSeats.length !== form.passengers}
                  onClick={confirm}
                  className="w-full rounded-xl bg-sky-600 py-2.5 font-semibold text-white hover:bg-sky-700 disabled:bg-gray-300"
                >
                  {chosenSeats.length === form.passengers ? 'Book now' : `Pick ${form.passengers - chosenSeats.length} more`}
                </button>
                <button onClick={() => setStep('results')} className="w-full text-sky-700 hover:underline">
                  Back to flights
                </button>
              </aside>
            </motion.section>
          )}

          {step === 'confirm' && flight && (
            <motion.section key="confirm" initial={{ opacity: 0, scale: 0.9 }} animate={{ opacity: 1, scale: 1 }} exit={{ opacity: 0 }} className="rounded-3xl bg-white p-10 text-center shadow-xl">
              <div className="mx-auto mb-4 flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-3xl text-green-600">✓</div>
              <h2 className="text-2xl font-bold">You are booked!</h2>
              <p className="mt-1 text-gray-600">
                Reference <span className="font-mono font-bold">{bookingRef}</span>
              </p>
              <div className="mx-auto mt-6 max-w-sm rounded-2xl border-2 border-dashed border-gray-300 p-5 text-left text-sm">
                <div className="flex justify-between text-2xl font-black">
                  <span>{form.from}</span>
                  <span className="text-gray-300">✈</span>
                  <span>{form.to}</span>
                </div>
                <div className="mt-2 flex justify-between text-gray-500">
                  <span>{flight.depart}</span>
                  <span>{form.date}</span>
                  <span>{flight.arrive}</span>
                </div>
                <div className="mt-3 flex justify-between">
                  <span>Seats: {chosenSeats.join(', ')}</span>
                  <span className="font-bold">${total}</span>
                </div>
              </div>
              <button
                onClick={() => {
                  setStep('search');
                  setFlight(null);
                  setChosenSeats([]);
                }}
                className="mt-6 rounded-xl bg-sky-600 px-6 py-2.5 font-semibold text-white hover:bg-sky-700"
              >
                Book another trip
              </button>
            </motion.section>
          )}
        </AnimatePresence>
      </div>
    </div>
  );
}
