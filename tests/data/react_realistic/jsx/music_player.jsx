// Waveform Music Player: simulated playback with queue, shuffle/repeat, seek bar, volume, liked songs and keyboard controls
import { useState, useEffect, useMemo, useRef, useCallback } from 'react';
import { Play, Pause, SkipBack, SkipForward, Shuffle, Repeat, Repeat1, Volume2, VolumeX, Heart, ListMusic, Search, Music } from 'lucide-react';

const TRACKS = [
  { id: 't1', title: 'Midnight Transit', artist: 'Lumen Drive', album: 'Night Lines', duration: 214, hue: 260 },
  { id: 't2', title: 'Paper Satellites', artist: 'The Quiet Hours', album: 'Low Orbit', duration: 187, hue: 200 },
  { id: 't3', title: 'Copper Fields', artist: 'Mara Vell', album: 'Harvest', duration: 242, hue: 30 },
  { id: 't4', title: 'Glass Harbour', artist: 'Lumen Drive', album: 'Night Lines', duration: 199, hue: 180 },
  { id: 't5', title: 'Slow Bloom', artist: 'Oda & the Ferns', album: 'Greenhouse', duration: 265, hue: 120 },
  { id: 't6', title: 'Static Hearts', artist: 'Neon Parish', album: 'Afterglow', duration: 176, hue: 330 },
  { id: 't7', title: 'Weather Balloon', artist: 'The Quiet Hours', album: 'Low Orbit', duration: 228, hue: 210 },
  { id: 't8', title: 'Salt & Cedar', artist: 'Mara Vell', album: 'Harvest', duration: 203, hue: 45 },
];

function fmt(sec) {
  const s = Math.max(0, Math.floor(sec));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function useWaveform(seed, bars) {
  return useMemo(() => {
    let x = seed * 9301 + 49297;
    return Array.from({ length: bars }, () => {
      x = (x * 9301 + 49297) % 233280;
      return 0.25 + (x / 233280) * 0.75;
    });
  }, [seed, bars]);
}

function Cover({ track, size }) {
  return (
    <div
      className={`${size} rounded-lg flex items-center justify-center shrink-0`}
      style={{ background: `linear-gradient(135deg, hsl(${track.hue}, 70%, 55%), hsl(${(track.hue + 60) % 360}, 70%, 35%))` }}
    >
      <Music className="w-1/3 h-1/3 text-white/80" />
    </div>
  );
}

export default function App() {
  const [queue, setQueue] = useState(TRACKS.map((t) => t.id));
  const [currentId, setCurrentId] = useState(TRACKS[0].id);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const [volume, setVolume] = useState(0.7);
  const [muted, setMuted] = useState(false);
  const [shuffle, setShuffle] = useState(false);
  const [repeat, setRepeat] = useState('off'); // off | all | one
  const [liked, setLiked] = useState(['t3']);
  const [filter, setFilter] = useState('');
  const seekRef = useRef(null);

  const current = TRACKS.find((t) => t.id === currentId) || TRACKS[0];
  const wave = useWaveform(TRACKS.indexOf(current) + 1, 64);

  const goTo = useCallback((offset) => {
    const idx = queue.indexOf(currentId);
    let nextIdx;
    if (shuffle && offset > 0) {
      nextIdx = Math.floor(Math.random() * queue.length);
      if (queue.length > 1 && nextIdx === idx) nextIdx = (idx + 1) % queue.length;
    } else {
      nextIdx = idx + offset;
    }
    if (nextIdx >= queue.length) {
      if (repeat === 'all') nextIdx = 0;
      else { setPlaying(false); setPosition(0); return; }
    }
    if (nextIdx < 0) nextIdx = queue.length - 1;
    setCurrentId(queue[nextIdx]);
    setPosition(0);
  }, [queue, currentId, shuffle, repeat]);

  const previous = useCallback(() => {
    if (position > 3) setPosition(0);
    else goTo(-1);
  }, [position, goTo]);

  useEffect(() => {
    if (!playing) return undefined;
    const id = setInterval(() => setPosition((p) => p + 0.25), 250);
    return () => clearInterval(id);
  }, [playing]);

  useEffect(() => {
    if (position < current.duration) return;
    if (repeat === 'one') setPosition(0);
    else goTo(1);
  }, [position, current.duration, repeat, goTo]);

  useEffect(() => {
    const onKey = (e) => {
      if (e.target.tagName === 'INPUT') return;
      if (e.code === 'Space') { e.preventDefault(); setPlaying((p) => !p); }
      if (e.key === 'ArrowRight') setPosition((p) => Math.min(current.duration - 1, p + 5));
      if (e.key === 'ArrowLeft') setPosition((p) => Math.max(0, p - 5));
      if (e.key === 'n') goTo(1);
      if (e.key === 'p') previous();
      if (e.key === 'm') setMuted((m) => !m);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [current.duration, goTo, previous]);

  const seek = (e) => {
    const rect = seekRef.current.getBoundingClientRect();
    const ratio = Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width));
    setPosition(ratio * current.duration);
  };

  const playTrack = (id) => {
    if (id === currentId) { setPlaying((p) => !p); return; }
    setCurrentId(id);
    setPosition(0);
    setPlaying(true);
  };

  const toggleLike = (id) => setLiked((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id]));
  const moveUp = (id) => setQueue((q) => {
    const i = q.indexOf(id);
    if (i <= 0) return q;
    const next = q.slice();
    [next[i - 1], next[i]] = [next[i], next[i - 1]];
    return next;
  });

  const cycleRepeat = () => setRepeat((r) => (r === 'off' ? 'all' : r === 'all' ? 'one' : 'off'));

  const visibleQueue = useMemo(() => {
    const q = filter.toLowerCase();
    return queue.map((id) => TRACKS.find((t) => t.id === id)).filter((t) => t && (t.title.toLowerCase().includes(q) || t.artist.toLowerCase().includes(q)));
  }, [queue, filter]);

  const totalTime = useMemo(() => queue.reduce((s, id) => s + (TRACKS.find((t) => t.id === id)?.duration || 0), 0), [queue]);
  const progress = position / current.duration;
  const effectiveVolume = muted ? 0 : volume;

  return (
    <div className="min-h-screen bg-zinc-950 text-zinc-100 flex">
      <section className="flex-1 flex flex-col items-center justify-center p-10" style={{ background: `radial-gradient(circle at top, hsla(${current.hue}, 60%, 30%, 0.6), transparent 60%)` }}>
        <Cover track={current} size="w-72 h-72 shadow-2xl" />
        <div className="mt-8 text-center">
          <h1 className="text-3xl font-bold">{current.title}</h1>
          <p className="text-zinc-400 mt-1">{current.artist} — {current.album}</p>
        </div>

        <div ref={seekRef} onClick={seek} className="mt-8 w-full max-w-xl h-16 flex items-end gap-[3px] cursor-pointer" role="slider" aria-valuenow={Math.round(position)} aria-valuemin={0} aria-valuemax={current.duration} tabIndex={0}>
          {wave.map((h, i) => (
            <div key={i} className={`flex-1 rounded-sm ${i / wave.length < progress ? 'bg-white' : 'bg-zinc-700'}`} style={{ height: `${h * 100}%` }} />
          ))}
        </div>
        <div className="w-full max-w-xl flex justify-between text-xs text-zinc-400 mt-2">
          <span>{fmt(position)}</span>
          <span>-{fmt(current.duration - position)}</span>
        </div>

        <div className="flex items-center gap-6 mt-6">
          <button onClick={() => setShuffle((s) => !s)} className={shuffle ? 'text-emerald-400' : 'text-zinc-400 hover:text-white'} aria-label="Shuffle"><Shuffle className="w-5 h-5" /></button>
          <button onClick={previous} className="text-zinc-200 hover:text-white" aria-label="Previous"><SkipBack className="w-7 h-7" /></button>
          <button onClick={() => setPlaying((p) => !p)} className="w-16 h-16 rounded-full bg-white text-zinc-900 flex items-center justify-center hover:scale-105 transition" aria-label={playing ? 'Pause' : 'Play'}>
            {playing ? <Pause className="w-7 h-7" /> : <Play className="w-7 h-7 ml-1" />}
          </button>
          <button onClick={() => goTo(1)} className="text-zinc-200 hover:text-white" aria-label="Next"><SkipForward className="w-7 h-7" /></button>
          <button onClick={cycleRepeat} className={repeat !== 'off' ? 'text-emerald-400' : 'text-zinc-400 hover:text-white'} aria-label="Repeat">
            {repeat === 'one' ? <Repeat1 className="w-5 h-5" /> : <Repeat className="w-5 h-5" />}
          </button>
        </div>

        <div className="flex items-center gap-3 mt-8">
          <button onClick={() => setMuted((m) => !m)} className="text-zinc-400 hover:text-white" aria-label="Mute">
            {effectiveVolume === 0 ? <VolumeX className="w-5 h-5" /> : <Volume2 className="w-5 h-5" />}
          </button>
          <input type="range" min={0} max={1} step={0.01} value={effectiveVolume} onChange={(e) => { setVolume(Number(e.target.value)); setMuted(false); }} className="w-40 accent-white" />
          <span className="text-xs text-zinc-500 w-8">{Math.round(effectiveVolume * 100)}</span>
          <button onClick={() => toggleLike(current.id)} className={`ml-4 ${liked.includes(current.id) ? 'text-rose-500' : 'text-zinc-400 hover:text-white'}`} aria-label="Like">
            <Heart className={`w-5 h-5 ${liked.includes(current.id) ? 'fill-current' : ''}`} />
          </button>
        </div>
        <p className="text-xs text-zinc-600 mt-6">Space play/pause · ←/→ seek · N/P next/previous · M mute</p>
      </section>

      <aside className="w-96 bg-zinc-900 border-l border-zinc-800 flex flex-col">
        <div className="p-5 border-b border-zinc-800">
          <h2 className="font-semibold flex items-center gap-2"><ListMusic className="w-4 h-4" /> Up next</h2>
          <p className="text-xs text-zinc-500 mt-1">{queue.length} tracks · {fmt(totalTime)} · {liked.length} liked</p>
          <div className="relative mt-3">
            <Search className="w-4 h-4 absolute left-3 top-2.5 text-zinc-500" />
            <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Filter queue" className="w-full bg-zinc-800 rounded-lg pl-9 pr-3 py-2 text-sm outline-none focus:ring-1 focus:ring-zinc-600" />
          </div>
        </div>
        <ul className="flex-1 overflow-y-auto p-2">
          {visibleQueue.map((t, i) => {
            const active = t.id === currentId;
            return (
              <li key={t.id} className={`group flex items-center gap-3 p-2 rounded-lg ${active ? 'bg-zinc-800' : 'hover:bg-zinc-800/60'}`}>
                <button onClick={() => playTrack(t.id)} className="relative" aria-label={`Play ${t.title}`}>
                  <Cover track={t} size="w-11 h-11" />
                  {active && playing && <span className="absolute inset-0 flex items-center justify-center bg-black/40 rounded-lg"><Pause className="w-4 h-4" /></span>}
                </button>
                <div className="flex-1 min-w-0">
                  <p className={`text-sm truncate ${active ? 'text-emerald-400 font-medium' : ''}`}>{t.title}</p>
                  <p className="text-xs text-zinc-500 truncate">{t.artist}</p>
                </div>
                <button onClick={() => toggleLike(t.id)} className={liked.includes(t.id) ? 'text-rose-500' : 'text-zinc-600 opacity-0 group-hover:opacity-100'} aria-label="Like track">
                  <Heart className={`w-4 h-4 ${liked.includes(t.id) ? 'fill-current' : ''}`} />
                </button>
                {i > 0 && !filter && (
                  <button onClick={() => moveUp(t.id)} className="text-xs text-zinc-500 opacity-0 group-hover:opacity-100 hover:text-white">↑</button>
                )}
                <span className="text-xs text-zinc-500 w-10 text-right">{fmt(t.duration)}</span>
              </li>
            );
          })}
          {visibleQueue.length === 0 && <li className="text-center text-sm text-zinc-500 py-10">No tracks match.</li>}
        </ul>
      </aside>
    </div>
  );
}
