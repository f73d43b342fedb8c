// Music Player: playlist player with simulated playback progress, seek bar, shuffle and repeat modes, volume, likes and an animated equalizer
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ChangeEvent } from 'react';
import { Play, Pause, SkipBack, SkipForward, Shuffle, Repeat, Repeat1, Volume2, VolumeX, Heart, ListMusic, Search } from 'lucide-react';

type RepeatMode = 'off' | 'all' | 'one';

interface Track {
  id: number;
  title: string;
  artist: string;
  album: string;
  duration: number; // seconds
  hue: number;
}

const PLAYLIST: Track[] = [
  { id: 1, title: 'Glass Harbour', artist: 'Lumen Drift', album: 'Low Tide', duration: 214, hue: 200 },
  { id: 2, title: 'Paper Satellites', artist: 'The Quiet Hours', album: 'Orbitals', duration: 187, hue: 260 },
  { id: 3, title: 'Neon Orchard', artist: 'Mira Vale', album: 'Afterglow', duration: 243, hue: 320 },
  { id: 4, title: 'Slow Engines', artist: 'Copperline', album: 'Freight', duration: 198, hue: 30 },
  { id: 5, title: 'Falling Upward', artist: 'Lumen Drift', album: 'Low Tide', duration: 226, hue: 170 },
  { id: 6, title: 'Midnight Ferry', artist: 'Harbor & Pine', album: 'Crossings', duration: 271, hue: 220 },
  { id: 7, title: 'Static Bloom', artist: 'Mira Vale', album: 'Afterglow', duration: 165, hue: 340 },
  { id: 8, title: 'Lanterns', artist: 'The Quiet Hours', album: 'Orbitals', duration: 208, hue: 50 },
];

function formatTime(s: number): string {
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
}

function shuffleOrder(length: number, first: number): number[] {
  const rest = Array.from({ length }, (_, i) => i).filter((i) => i !== first);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  return [first, ...rest];
}

function Equalizer({ playing, hue }: { playing: boolean; hue: number }) {
  const [levels, setLevels] = useState<number[]>(() => Array.from({ length: 24 }, () => 0.2));
  useEffect(() => {
    if (!playing) return;
    const id = setInterval(() => setLevels((ls) => ls.map((l, i) => Math.max(0.08, Math.min(1, l * 0.5 + Math.random() * 0.6 * (1 - i / 40))))), 120);
    return () => clearInterval(id);
  }, [playing]);
  return (
    <div className="flex h-16 items-end gap-1">
      {levels.map((l, i) => (
        <span key={i} className="w-2 rounded-t transition-all duration-100" style={{ height: `${(playing ? l : 0.08) * 100}%`, backgroundColor: `hsl(${hue + i * 3} 80% 60%)` }} />
      ))}
    </div>
  );
}

export default function App() {
  const [order, setOrder] = useState<number[]>(() => PLAYLIST.map((_, i) => i));
  const [position, setPosition] = useState(0); // index into order
  const [elapsed, setElapsed] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [shuffle, setShuffle] = useState(false);
  const [repeat, setRepeat] = useState<RepeatMode>('off');
  const [volume, setVolume] = useState(0.7);
  const [muted, setMuted] = useState(false);
  const [liked, setLiked] = useState<Set<number>>(() => new Set([3]));
  const [filter, setFilter] = useState('');

  const track = PLAYLIST[order[position] ?? 0];

  const goTo = useCallback((nextPosition: number) => {
    setPosition(nextPosition);
    setElapsed(0);
  }, []);

  const next = useCallback(
    (auto = false) => {
      if (auto && repeat === 'one') {
        setElapsed(0);
        return;
      }
      if (position + 1 < order.length) goTo(position + 1);
      else if (repeat === 'all' || !auto) goTo(0);
      else {
        setPlaying(false);
        setElapsed(0);
      }
    },
    [position, order.length, repeat, goTo],
  );

  const prev = () => {
    if (elapsed > 3) setElapsed(0);
    else goTo(position === 0 ? order.length - 1 : position - 1);
  };

  useEffect(() => {
    if (!playing) return;
    const id = setInterval(() => setElapsed((e) => e + 1), 1000);
    return () => clearInterval(id);
  }, [playing]);

  useEffect(() => {
    if (elapsed >= track.duration) next(true);
  }, [elapsed, track.duration, next]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      if (e.code === 'Space') {
        e.preventDefault();
        setPlaying((p) => !p);
      }
      if (e.key === 'ArrowRight') setElapsed((x) => Math.min(x + 10, track.duration - 1));
      if (e.key === 'ArrowLeft') setElapsed((x) => Math.max(x - 10, 0));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [track.duration]);

  const toggleShuffle = () => {
    const currentIndex = order[position] ?? 0;
    const nextOrder = shuffle ? PLAYLIST.map((_, i) => i) : shuffleOrder(PLAYLIST.length, currentIndex);
    setOrder(nextOrder);
    setPosition(nextOrder.indexOf(currentIndex));
    setShuffle((s) => !s);
  };

  const cycleRepeat = () => setRepeat((r) => (r === 'off' ? 'all' : r === 'all' ? 'one' : 'off'));

  const toggleLike = (id: number) =>
    setLiked((set) => {
      const copy = new Set(set);
      if (copy.has(id)) copy.delete(id);
      else copy.add(id);
      return copy;
    });

  const queue = useMemo(() => {
    const q = filter.toLowerCase();
    return order
      .map((trackIndex, pos) => ({ track: PLAYLIST[trackIndex], pos }))
      .filter(({ track: t }) => t.title.toLowerCase().includes(q) || t.artist.toLowerCase().includes(q));
  }, [order, filter]);

  const totalTime = PLAYLIST.reduce((s, t) => s + t.duration, 0);
  const effectiveVolume = muted ? 0 : volume;

  return (
    <div className="flex min-h-screen items-center justify-center p-8" style={{ background: `radial-gradient(circle at 30% 20%, hsl(${track.hue} 60% 25%), #09090b 70%)` }}>
      <div className="grid w-full max-w-5xl grid-cols-5 gap-6 text-white">
        <section className="col-span-3 rounded-3xl bg-black/40 p-8 backdrop-blur">
          <div
            className="mx-auto flex aspect-square w-72 items-center justify-center rounded-2xl text-7xl font-black shadow-2xl"
            style={{ background: `linear-gradient(135deg, hsl(${track.hue} 80% 55%), hsl(${(track.hue + 60) % 360} 70% 35%))` }}
          >
            {track.title
              .split(' ')
              .map((w) => w[0])
              .join('')}
          </div>
          <div className="mt-6 flex items-center justify-between">
            <div>
              <h1 className="text-2xl font-bold">{track.title}</h1>
              <p className="text-white/60">
                {track.artist} · {track.album}
              </p>
            </div>
            <button onClick={() => toggleLike(track.id)} aria-label="Like" className="rounded-full p-2 hover:bg-white/10">
              <Heart className={liked.has(track.id) ? 'fill-rose-500 text-rose-500' : 'text-white/70'} />
            </button>
          </div>

          <div className="mt-4">
            <Equalizer playing={playing} hue={track.hue} />
          </div>

          <div className="mt-4">
            <input
              type="range"
              min={0}
              max={track.duration}
              value={elapsed}
              onChange={(e: ChangeEvent<HTMLInputElement>) => setElapsed(Number(e.target.value))}
              className="w-full accent-white"
              aria-label="Seek"
            />
            <div className="flex justify-between text-xs text-white/60">
              <span>{formatTime(elapsed)}</span>
              <span>-{formatTime(track.duration - elapsed)}</span>
            </div>
          </div>

          <div className="mt-4 flex items-center justify-center gap-6">
            <button onClick={toggleShuffle} className={shuffle ? 'text-emerald-400' : 'text-white/60 hover:text-white'} aria-label="Shuffle">
              <Shuffle size={20} />
            </button>
            <button onClick={prev} className="hover:text-white/80" aria-label="Previous">
              <SkipBack size={28} className="fill-white" />
            </button>
            <button onClick={() => setPlaying((p) => !p)} className="flex h-16 w-16 items-center justify-center rounded-full bg-white text-black hover:scale-105" aria-label={playing ? 'Pause' : 'Play'}>
              {playing ? <Pause size={28} className="fill-black" /> : <Play size={28} className="ml-1 fill-black" />}
            </button>
            <button onClick={() => next(false)} className="hover:text-white/80" aria-label="Next">
              <SkipForward size={28} className="fill-white" />
            </button>
            <button onClick={cycleRepeat} className={repeat !== 'off' ? 'text-emerald-400' : 'text-white/60 hover:text-white'} aria-label={`Repeat ${repeat}`}>
              {repeat === 'one' ? <Repeat1 size={20} /> : <Repeat size={20} />}
            </button>
          </div>

          <div className="mt-6 flex items-center gap-3">
            <button onClick={() => setMuted((m) => !m)} aria-label="Mute">
              {effectiveVolume === 0 ? <VolumeX size={18} /> : <Volume2 size={18} />}
            </button>
            <input
              type="range"
              min={0}
              max={1}
              step={0.01}
              value={effectiveVolume}
              onChange={(e) => {
                setVolume(Number(e.target.value));
                setMuted(false);
              }}
              className="w-40 accent-white"
              aria-label="Volume"
            />
            <span className="text-xs text-white/50">{Math.round(effectiveVolume * 100)}%</span>
          </div>
        </section>

        <aside className="col-span-2 flex flex-col rounded-3xl bg-black/40 p-6 backdrop-blur">
          <div className="mb-3 flex items-center justify-between">
            <h2 className="flex items-center gap-2 font-semibold">
              <ListMusic size={18} /> Up next
            </h2>
            <span className="text-xs text-white/50">
              {PLAYLIST.length} songs · {Math.round(totalTime / 60)} min
            </span>
          </div>
          <label className="mb-3 flex items-center gap-2 rounded-lg bg-white/10 px-3 py-2">
            <Search size={14} className="text-white/50" />
            <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Filter queue" className="w-full bg-transparent text-sm outline-none placeholder:text-white/40" />
          </label>
          <ol className="flex-1 space-y-1 overflow-y-auto">
            {queue.map(({ track: t, pos }) => {
              const current = pos === position;
              return (
                <li key={t.id}>
                  <button
                    onClick={() => {
                      goTo(pos);
                      setPlaying(true);
                    }}
                    className={`flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left ${current ? 'bg-white/15' : 'hover:bg-white/5'}`}
                  >
                    <span className="h-10 w-10 shrink-0 rounded-md" style={{ background: `hsl(${t.hue} 70% 45%)` }} />
                    <span className="min-w-0 flex-1">
                      <span className={`block truncate text-sm ${current ? 'font-semibold text-emerald-300' : ''}`}>{t.title}</span>
                      <span className="block truncate text-xs text-white/50">{t.artist}</span>
                    </span>
                    {liked.has(t.id) && <Heart size={12} className="fill-rose-500 text-rose-500" />}
                    <span className="text-xs text-white/50">{formatTime(t.duration)}</span>
                  </button>
                </li>
              );
            })}
          </ol>
          <p className="mt-3 text-center text-[10px] text-white/40">Space: play/pause · ←/→: seek 10s</p>
        </aside>
      </div>
    </div>
  );
}
