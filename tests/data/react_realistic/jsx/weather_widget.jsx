// Skycast Weather: city switcher with fake forecast data, hourly temperature chart, 7-day outlook and unit toggle
import { useState, useMemo, useEffect } from 'react';
import { AreaChart, Area, XAxis, YAxis, Tooltip, ResponsiveContainer, CartesianGrid } from 'recharts';

const CITIES = {
  Lisbon: { country: 'Portugal', base: 21, swing: 6, humidity: 62, wind: 14, conditions: ['sunny', 'sunny', 'partly', 'sunny', 'partly', 'cloudy', 'sunny'], tz: 0 },
  Oslo: { country: 'Norway', base: 9, swing: 5, humidity: 74, wind: 19, conditions: ['rain', 'cloudy', 'rain', 'partly', 'cloudy', 'snow', 'cloudy'], tz: 1 },
  Tokyo: { country: 'Japan', base: 18, swing: 7, humidity: 68, wind: 11, conditions: ['partly', 'rain', 'rain', 'cloudy', 'sunny', 'sunny', 'partly'], tz: 9 },
  Phoenix: { country: 'USA', base: 33, swing: 9, humidity: 18, wind: 9, conditions: ['sunny', 'sunny', 'sunny', 'sunny', 'partly', 'sunny', 'storm'], tz: -7 },
  Reykjavik: { country: 'Iceland', base: 4, swing: 3, humidity: 81, wind: 28, conditions: ['snow', 'cloudy', 'snow', 'storm', 'cloudy', 'partly', 'snow'], tz: 0 },
};

const CONDITION_META = {
  sunny: { label: 'Sunny', icon: '☀️', gradient: 'from-sky-400 to-amber-300' },
  partly: { label: 'Partly cloudy', icon: '⛅', gradient: 'from-sky-400 to-slate-300' },
  cloudy: { label: 'Overcast', icon: '☁️', gradient: 'from-slate-400 to-slate-600' },
  rain: { label: 'Light rain', icon: '🌧️', gradient: 'from-slate-500 to-blue-700' },
  storm: { label: 'Thunderstorms', icon: '⛈️', gradient: 'from-slate-700 to-indigo-900' },
  snow: { label: 'Snow showers', icon: '🌨️', gradient: 'from-slate-200 to-sky-400' },
};

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function seeded(seed) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

function buildForecast(name) {
  const city = CITIES[name];
  const rand = seeded(name.length * 7919 + city.base * 31);
  const hourly = Array.from({ length: 24 }, (_, h) => {
    const curve = Math.sin(((h - 9) / 24) * Math.PI * 2);
    return { hour: `${String(h).padStart(2, '0')}:00`, temp: city.base + curve * city.swing * 0.6 + (rand() - 0.5) * 2, rain: Math.round(rand() * (city.conditions[0] === 'rain' ? 80 : 30)) };
  });
  const todayIndex = new Date().getDay();
  const daily = city.conditions.map((c, i) => {
    const hi = city.base + city.swing / 2 + (rand() - 0.5) * 4;
    return { day: i === 0 ? 'Today' : DAYS[(todayIndex + i) % 7], condition: c, hi, lo: hi - city.swing - rand() * 3, rain: Math.round(rand() * 100) };
  });
  return { hourly, daily };
}

function toUnit(c, unit) {
  return unit === 'C' ? c : c * 1.8 + 32;
}

function useClock(offsetHours) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 30000);
    return () => clearInterval(id);
  }, []);
  const utc = now.getTime() + now.getTimezoneOffset() * 60000;
  return new Date(utc + offsetHours * 3600000);
}

export default function App() {
  const [cityName, setCityName] = useState('Lisbon');
  const [unit, setUnit] = useState('C');
  const [query, setQuery] = useState('');
  const [favourites, setFavourites] = useState(['Lisbon', 'Tokyo']);
  const [selectedDay, setSelectedDay] = useState(0);

  const city = CITIES[cityName];
  const forecast = useMemo(() => buildForecast(cityName), [cityName]);
  const localTime = useClock(city.tz);
  const hourNow = localTime.getHours();
  const nowTemp = forecast.hourly[hourNow].temp;
  const condition = CONDITION_META[forecast.daily[selectedDay].condition];

  const chartData = useMemo(
    () => forecast.hourly.map((h) => ({ ...h, temp: Math.round(toUnit(h.temp, unit) * 10) / 10 })),
    [forecast, unit]
  );

  const suggestions = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return Object.keys(CITIES).filter((n) => n.toLowerCase().startsWith(q) || CITIES[n].country.toLowerCase().startsWith(q));
  }, [query]);

  const pickCity = (name) => {
    setCityName(name);
    setSelectedDay(0);
    setQuery('');
  };

  const onSearchKey = (e) => {
    if (e.key === 'Enter' && suggestions.length) pickCity(suggestions[0]);
    if (e.key === 'Escape') setQuery('');
  };

  const toggleFavourite = () => setFavourites((f) => (f.includes(cityName) ? f.filter((x) => x !== cityName) : [...f, cityName]));
  const feelsLike = nowTemp - city.wind / 10 + (city.humidity > 70 ? 1 : 0);
  const deg = (c) => `${Math.round(toUnit(c, unit))}°`;

  return (
    <div className={`min-h-screen bg-gradient-to-br ${condition.gradient} p-8 transition-all duration-700`}>
      <div className="max-w-5xl mx-auto">
        <div className="flex items-center gap-4 mb-6">
          <div className="relative flex-1 max-w-sm">
            <input
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={onSearchKey}
              placeholder="Search city or country…"
              className="w-full rounded-full px-5 py-2.5 bg-white/30 backdrop-blur placeholder-white/80 text-white outline-none focus:bg-white/40"
            />
            {suggestions.length > 0 && (
              <ul className="absolute z-10 mt-2 w-full bg-white rounded-xl shadow-lg overflow-hidden">
                {suggestions.map((s) => (
                  <li key={s}>
                    <button onClick={() => pickCity(s)} className="w-full text-left px-4 py-2 hover:bg-slate-100 text-slate-700">{s}, <span className="text-slate-400">{CITIES[s].country}</span></button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="flex gap-2">
            {favourites.map((f) => (
              <button key={f} onClick={() => pickCity(f)} className={`px-3 py-1.5 rounded-full text-sm ${f === cityName ? 'bg-white text-slate-800' : 'bg-white/20 text-white'}`}>{f}</button>
            ))}
          </div>
          <div className="ml-auto flex bg-white/20 rounded-full p-1 text-sm text-white">
            {['C', 'F'].map((u) => (
              <button key={u} onClick={() => setUnit(u)} className={`px-3 py-1 rounded-full ${unit === u ? 'bg-white text-slate-800' : ''}`}>°{u}</button>
            ))}
          </div>
        </div>

        <div className="grid grid-cols-3 gap-6">
          <div className="col-span-1 bg-white/20 backdrop-blur rounded-3xl p-6 text-white">
            <div className="flex items-start justify-between">
              <div>
                <h1 className="text-3xl font-bold">{cityName}</h1>
                <p className="text-white/80">{city.country} · {localTime.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}</p>
              </div>
              <button onClick={toggleFavourite} className="text-2xl" aria-label="Toggle favourite">{favourites.includes(cityName) ? '★' : '☆'}</button>
            </div>
            <div className="text-8xl mt-6">{CONDITION_META[forecast.daily[0].condition].icon}</div>
            <p className="text-7xl font-extralight mt-2">{deg(nowTemp)}</p>
            <p className="text-lg mt-1">{CONDITION_META[forecast.daily[0].condition].label}</p>
            <div className="grid grid-cols-3 gap-2 mt-6 text-center text-sm">
              <div className="bg-white/15 rounded-xl py-2"><p className="text-white/70 text-xs">Feels like</p><p className="font-semibold">{deg(feelsLike)}</p></div>
              <div className="bg-white/15 rounded-xl py-2"><p className="text-white/70 text-xs">Humidity</p><p className="font-semibold">{city.humidity}%</p></div>
              <div className="bg-white/15 rounded-xl py-2"><p className="text-white/70 text-xs">Wind</p><p className="font-semibold">{city.wind} km/h</p></div>
            </div>
          </div>

          <div className="col-span-2 flex flex-col gap-6">
            <div className="bg-white/90 rounded-3xl p-6">
              <div className="flex items-center justify-between mb-3">
                <h2 className="font-semibold text-slate-700">Next 24 hours</h2>
                <span className="text-xs text-slate-500">High {deg(Math.max(...forecast.hourly.map((h) => h.temp)))} · Low {deg(Math.min(...forecast.hourly.map((h) => h.temp)))}</span>
              </div>
              <div className="h-48">
                <ResponsiveContainer width="100%" height="100%">
                  <AreaChart data={chartData} margin={{ left: -20, right: 10 }}>
                    <defs>
                      <linearGradient id="tempFill" x1="0" y1="0" x2="0" y2="1">
                        <stop offset="0%" stopColor="#f59e0b" stopOpacity={0.5} />
                        <stop offset="100%" stopColor="#f59e0b" stopOpacity={0} />
                      </linearGradient>
                    </defs>
                    <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
                    <XAxis dataKey="hour" interval={3} tick={{ fontSize: 11 }} />
                    <YAxis tick={{ fontSize: 11 }} domain={['dataMin - 2', 'dataMax + 2']} />
                    <Tooltip formatter={(v, key) => (key === 'temp' ? `${v}°${unit}` : `${v}%`)} />
                    <Area type="monotone" dataKey="temp" stroke="#f59e0b" strokeWidth={2} fill="url(#tempFill)" />
                  </AreaChart>
                </ResponsiveContainer>
              </div>
            </div>

            <div className="bg-white/90 rounded-3xl p-6">
              <h2 className="font-semibold text-slate-700 mb-3">7-day forecast</h2>
              <div className="grid grid-cols-7 gap-2">
                {forecast.daily.map((d, i) => (
                  <button
                    key={d.day}
                    onClick={() => setSelectedDay(i)}
                    className={`rounded-2xl py-3 flex flex-col items-center gap-1 transition ${selectedDay === i ? 'bg-slate-800 text-white' : 'hover:bg-slate-100 text-slate-700'}`}
                  >
                    <span className="text-xs font-medium">{d.day}</span>
                    <span className="text-2xl">{CONDITION_META[d.condition].icon}</span>
                    <span className="text-sm font-semibold">{deg(d.hi)}</span>
                    <span className={`text-xs ${selectedDay === i ? 'text-white/60' : 'text-slate-400'}`}>{deg(d.lo)}</span>
                    <span className="text-[10px] text-sky-500">💧{d.rain}%</span>
                  </button>
                ))}
              </div>
              <p className="text-sm text-slate-600 mt-4">
                {forecast.daily[selectedDay].day}: {condition.label.toLowerCase()}, highs near {deg(forecast.daily[selectedDay].hi)} with a {forecast.daily[selectedDay].rain}% chance of precipitation.
              </p>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
