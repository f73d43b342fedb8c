// Weather Dashboard: city forecast with current conditions, hourly temperature chart and 7-day outlook; tries a network fetch and falls back to generated data
import { useEffect, useMemo, useState } from 'react';
import { AreaChart, Area, XAxis, YAxis, Tooltip, CartesianGrid, ResponsiveContainer } from 'recharts';
import { Sun, Cloud, CloudRain, CloudSnow, CloudLightning, Wind, Droplets, Thermometer, MapPin, Loader2 } from 'lucide-react';

type Condition = 'sunny' | 'cloudy' | 'rain' | 'snow' | 'storm';
type Unit = 'C' | 'F';

interface HourPoint {
  hour: string;
  temp: number;
  precip: number;
}

interface DayForecast {
  day: string;
  high: number;
  low: number;
  condition: Condition;
}

interface Forecast {
  city: string;
  temp: number;
  feelsLike: number;
  humidity: number;
  wind: number;
  condition: Condition;
  hourly: HourPoint[];
  daily: DayForecast[];
  source: 'live' | 'offline';
}

interface CityInfo {
  name: string;
  baseTemp: number;
  seed: number;
}

const CITIES: CityInfo[] = [
  { name: 'Oslo', baseTemp: 6, seed: 3 },
  { name: 'Lisbon', baseTemp: 19, seed: 7 },
  { name: 'Chicago', baseTemp: 12, seed: 11 },
  { name: 'Singapore', baseTemp: 29, seed: 13 },
  { name: 'Denver', baseTemp: 9, seed: 17 },
];

const CONDITIONS: Condition[] = ['sunny', 'cloudy', 'rain', 'snow', 'storm'];

const ICONS: Record<Condition, typeof Sun> = {
  sunny: Sun,
  cloudy: Cloud,
  rain: CloudRain,
  snow: CloudSnow,
  storm: CloudLightning,
};

const BACKGROUNDS: Record<Condition, string> = {
  sunny: 'from-amber-300 to-sky-400',
  cloudy: 'from-slate-300 to-slate-500',
  rain: 'from-sky-600 to-slate-700',
  snow: 'from-sky-100 to-indigo-300',
  storm: 'from-slate-700 to-indigo-900',
};

function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 9301 + 49297) % 233280;
    return s / 233280;
  };
}

function generateForecast(city: CityInfo): Forecast {
  const rand = seeded(city.seed);
  const pick = (): Condition => {
    const r = rand();
    if (city.baseTemp < 3 && r > 0.6) return 'snow';
    if (r < 0.4) return 'sunny';
    if (r < 0.7) return 'cloudy';
    if (r < 0.92) return 'rain';
    return 'storm';
  };
  const hourly = Array.from({ length: 24 }, (_, h) => ({
    hour: `${String(h).padStart(2, '0')}:00`,
    temp: Math.round((city.baseTemp + Math.sin(((h - 9) / 24) * Math.PI * 2) * 5 + (rand() - 0.5) * 2) * 10) / 10,
    precip: Math.round(rand() * 60),
  }));
  const names = ['Today', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  const daily = names.map((day) => {
    const high = Math.round(city.baseTemp + 4 + rand() * 4);
    return { day, high, low: high - 6 - Math.round(rand() * 4), condition: pick() };
  });
  const current = hourly[14];
  return {
    city: city.name,
    temp: current.temp,
    feelsLike: Math.round(current.temp - 1.5),
    humidity: Math.round(45 + rand() * 40),
    wind: Math.round(5 + rand() * 25),
    condition: daily[0].condition,
    hourly,
    daily,
    source: 'offline',
  };
}

function isCondition(v: unknown): v is Condition {
  return typeof v === 'string' && (CONDITIONS as string[]).includes(v);
}

async function loadForecast(city: CityInfo, signal: AbortSignal): Promise<Forecast> {
  try {
    const res = await fetch(`https://api.example-weather.dev/v1/forecast?city=${encodeURIComponent(city.name)}`, { signal });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as Partial<Forecast>;
    const fallback = generateForecast(city);
    return {
      ...fallback,
      temp: typeof body.temp === 'number' ? body.temp : fallback.temp,
      condition: isCondition(body.condition) ? body.condition : fallback.condition,
      source: 'live',
    };
  } catch {
    return generateForecast(city);
  }
}

const convert = (c: number, unit: Unit) => (unit === 'C' ? c : c * 1.8 + 32);

export default function App() {
  const [cityName, setCityName] = useState(CITIES[0].name);
  const [unit, setUnit] = useState<Unit>('C');
  const [forecast, setForecast] = useState<Forecast | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const city = CITIES.find((c) => c.name === cityName) ?? CITIES[0];
    const controller = new AbortController();
    let cancelled = false;
    setLoading(true);
    loadForecast(city, controller.signal).then((f) => {
      if (!cancelled) {
        setForecast(f);
        setLoading(false);
      }
    });
    return () => {
      cancelled = true;
      controller.abort();
    };
  }, [cityName]);

  const chartData = useMemo(
    () => (forecast ? forecast.hourly.map((h) => ({ ...h, temp: Math.round(convert(h.temp, unit) * 10) / 10 })) : []),
    [forecast, unit],
  );

  const range = useMemo(() => {
    if (!forecast) return { min: 0, max: 0 };
    const temps = forecast.daily.flatMap((d) => [d.low, d.high]);
    return { min: Math.min(...temps), max: Math.max(...temps) };
  }, [forecast]);

  const fmt = (c: number) => `${Math.round(convert(c, unit))}°${unit}`;

  if (!forecast) {
    return (
      <div className="flex min-h-screen items-center justify-center bg-sky-100 text-sky-800">
        <Loader2 className="mr-2 animate-spin" /> Loading forecast…
      </div>
    );
  }

  const CurrentIcon = ICONS[forecast.condition];

  return (
    <div className={`min-h-screen bg-gradient-to-br ${BACKGROUNDS[forecast.condition]} p-8 transition-colors`}>
      <div className="mx-auto max-w-5xl">
        <header className="mb-6 flex items-center justify-between">
          <div className="flex gap-2">
            {CITIES.map((c) => (
              <button
                key={c.name}
                onClick={() => setCityName(c.name)}
                className={`rounded-full px-4 py-1.5 text-sm font-medium backdrop-blur ${cityName === c.name ? 'bg-white text-slate-900' : 'bg-white/20 text-white hover:bg-white/30'}`}
              >
                {c.name}
              </button>
            ))}
          </div>
          <div className="flex overflow-hidden rounded-full bg-white/20 text-sm text-white">
            {(['C', 'F'] as Unit[]).map((u) => (
              <button key={u} onClick={() => setUnit(u)} className={`px-3 py-1.5 ${unit === u ? 'bg-white text-slate-900' : ''}`}>
                °{u}
              </button>
            ))}
          </div>
        </header>

        <div className="grid grid-cols-3 gap-6">
          <section className="col-span-1 rounded-3xl bg-white/25 p-6 text-white shadow-xl backdrop-blur-md">
            <div className="flex items-center gap-1 text-sm opacity-90">
              <MapPin size={14} /> {forecast.city}
              {loading && <Loader2 size={14} className="ml-2 animate-spin" />}
            </div>
            <CurrentIcon size={72} className="my-4" strokeWidth={1.5} />
            <div className="text-6xl font-light">{fmt(forecast.temp)}</div>
            <div className="mt-1 capitalize opacity-90">{forecast.condition}</div>
            <div className="mt-6 grid grid-cols-3 gap-3 text-sm">
              <div>
                <Thermometer size={16} />
                <div className="opacity-75">Feels</div>
                <div className="font-semibold">{fmt(forecast.feelsLike)}</div>
              </div>
              <div>
                <Droplets size={16} />
                <div className="opacity-75">Humidity</div>
                <div className="font-semibold">{forecast.humidity}%</div>
              </div>
              <div>
                <Wind size={16} />
                <div className="opacity-75">Wind</div>
                <div className="font-semibold">{forecast.wind} km/h</div>
              </div>
            </div>
            <p className="mt-6 text-xs opacity-70">{forecast.source === 'live' ? 'Live data' : 'Offline estimate (service unreachable)'}</p>
          </section>

          <section className="col-span-2 rounded-3xl bg-white/90 p-6 shadow-xl">
            <h2 className="mb-4 font-semibold text-slate-800">Next 24 hours</h2>
            <div className="h-64">
              <ResponsiveContainer width="100%" height="100%">
                <AreaChart data={chartData}>
                  <defs>
                    <linearGradient id="tempFill" x1="0" y1="0" x2="0" y2="1">
                      <stop offset="0%" stopColor="#f97316" stopOpacity={0.5} />
                      <stop offset="100%" stopColor="#f97316" stopOpacity={0} />
                    </linearGradient>
                  </defs>
                  <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                  <XAxis dataKey="hour" interval={3} tick={{ fontSize: 11 }} />
                  <YAxis tick={{ fontSize: 11 }} width={36} unit="°" />
                  <Tooltip />
                  <Area type="monotone" dataKey="temp" stroke="#f97316" fill="url(#tempFill)" strokeWidth={2} name={`Temp (°${unit})`} />
                </AreaChart>
              </ResponsiveContainer>
            </div>
            <div className="mt-4 flex gap-1">
              {forecast.hourly
                .filter((_, i) => i % 3 === 0)
                .map((h) => (
                  <div key={h.hour} className="flex-1 text-center text-xs text-slate-500">
                    <div className="mx-auto mb-1 w-3 rounded-t bg-sky-400" style={{ height: `${Math.max(2, h.precip / 2)}px` }} />
                    {h.precip}%
                  </div>
                ))}
            </div>
          </section>
        </div>

        <section className="mt-6 rounded-3xl bg-white/90 p-6 shadow-xl">
          <h2 className="mb-4 font-semibold text-slate-800">7-day forecast</h2>
          <ul className="space-y-3">
            {forecast.daily.map((d) => {
              const Icon = ICONS[d.condition];
              const span = range.max - range.min || 1;
              return (
                <li key={d.day} className="flex items-center gap-4 text-sm text-slate-700">
                  <span className="w-14 font-medium">{d.day}</span>
                  <Icon size={20} className="text-slate-500" />
                  <span className="w-12 text-right text-slate-400">{fmt(d.low)}</span>
                  <div className="relative h-2 flex-1 rounded-full bg-slate-100">
                    <div
                      className="absolute h-2 rounded-full bg-gradient-to-r from-sky-400 to-orange-400"
                      style={{ left: `${((d.low - range.min) / span) * 100}%`, right: `${100 - ((d.high - range.min) / span) * 100}%` }}
                    />
                  </div>
                  <span className="w-12 font-semibold">{fmt(d.high)}</span>
                </li>
              );
            })}
          </ul>
        </section>
      </div>
    </div>
  );
}
