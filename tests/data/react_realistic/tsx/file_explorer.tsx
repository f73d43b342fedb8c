// File Explorer: recursive folder tree with expand/collapse, create, inline rename, delete, breadcrumbs, sorting and a file preview pane
import { useMemo, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { Folder, FolderOpen, FileText, FileCode, FileImage, File, ChevronRight, ChevronDown, FolderPlus, FilePlus, Pencil, Trash2 } from 'lucide-react';

interface FileNode {
  id: string;
  name: string;
  kind: 'file';
  size: number;
  content: string;
  modified: string;
}

interface FolderNode {
  id: string;
  name: string;
  kind: 'folder';
  children: TreeNode[];
}

type TreeNode = FileNode | FolderNode;

let counter = 100;
const nextId = () => `n${counter++}`;

const file = (name: string, content: string, modified = '2024-05-12'): FileNode => ({ id: nextId(), name, kind: 'file', size: content.length * 8 + 120, content, modified });
const folder = (name: string, children: TreeNode[]): FolderNode => ({ id: nextId(), name, kind: 'folder', children });

const ROOT: FolderNode = folder('project', [
  folder('src', [
    folder('components', [file('Button.tsx', 'export function Button() {\n  return <button>Click</button>;\n}'), file('Modal.tsx', 'export function Modal() {\n  return null;\n}')]),
    file('index.ts', "export * from './components';"),
    file('styles.css', 'body { margin: 0; font-family: system-ui; }'),
  ]),
  folder('assets', [file('logo.svg', '<svg viewBox="0 0 10 10"></svg>'), file('hero.png', '(binary image data)')]),
  file('README.md', '# Project\n\nA small demo project used by the file explorer.'),
  file('package.json', '{\n  "name": "project",\n  "version": "1.0.0"\n}'),
]);

function iconFor(name: string) {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  if (['ts', 'tsx', 'js', 'json', 'css'].includes(ext)) return FileCode;
  if (['png', 'jpg', 'svg', 'gif'].includes(ext)) return FileImage;
  if (['md', 'txt'].includes(ext)) return FileText;
  return File;
}

function mapTree(node: TreeNode, fn: (n: TreeNode) => TreeNode | null): TreeNode | null {
  const mapped = fn(node);
  if (!mapped) return null;
  if (mapped.kind === 'folder') {
    return { ...mapped, children: mapped.children.map((c) => mapTree(c, fn)).filter((c): c is TreeNode => c !== null) };
  }
  return mapped;
}

function findPath(node: TreeNode, id: string, trail: FolderNode[] = []): { node: TreeNode; parents: FolderNode[] } | null {
  if (node.id === id) return { node, parents: trail };
  if (node.kind === 'folder') {
    for (const child of node.children) {
      const found = findPath(child, id, [...trail, node]);
      if (found) return found;
    }
  }
  return null;
}

function countFiles(node: TreeNode): { files: number; bytes: number } {
  if (node.kind === 'file') return { files: 1, bytes: node.size };
  return node.children.reduce((acc, c) => {
    const sub = countFiles(c);
    return { files: acc.files + sub.files, bytes: acc.bytes + sub.bytes };
  }, { files: 0, bytes: 0 });
}

const sortNodes = (nodes: TreeNode[]) => [...nodes].sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1));

const formatBytes = (b: number) => (b < 1024 ? `${b} B` : `${(b / 1024).toFixed(1)} KB`);

export default function App() {
  const [root, setRoot] = useState<FolderNode>(ROOT);
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set([ROOT.id, (ROOT.children[0] as FolderNode).id]));
  const [selectedId, setSelectedId] = useState<string>(ROOT.id);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [renameValue, setRenameValue] = useState('');
  const [error, setError] = useState('');

  const selection = useMemo(() => findPath(root, selectedId) ?? { node: root, parents: [] }, [root, selectedId]);
  const targetFolder: FolderNode = selection.node.kind === 'folder' ? selection.node : selection.parents[selection.parents.length - 1] ?? root;
  const stats = useMemo(() => countFiles(root), [root]);

  const toggle = (id: string) =>
    setExpanded((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const siblingsHaveName = (parent: FolderNode, name: string, exceptId?: string) => parent.children.some((c) => c.id !== exceptId && c.name.toLowerCase() === name.toLowerCase());

  const create = (kind: 'file' | 'folder') => {
    const base = kind === 'file' ? 'untitled.txt' : 'New folder';
    let name = base;
    let i = 2;
    while (siblingsHaveName(targetFolder, name)) name = kind === 'file' ? `untitled-${i++}.txt` : `New folder ${i++}`;
    const node: TreeNode = kind === 'file' ? file(name, '', new Date().toISOString().slice(0, 10)) : folder(name, []);
    setRoot((r) => mapTree(r, (n) => (n.id === targetFolder.id && n.kind === 'folder' ? { ...n, children: [...n.children, node] } : n)) as FolderNode);
    setExpanded((s) => new Set(s).add(targetFolder.id));
    setSelectedId(node.id);
    setRenamingId(node.id);
    setRenameValue(name);
  };

  const commitRename = (e?: FormEvent<HTMLFormElement>) => {
    e?.preventDefault();
    if (!renamingId) return;
    const found = findPath(root, renamingId);
    const parent = found?.parents[found.parents.length - 1];
    const name = renameValue.trim();
    if (!name || /[\\/:*?"<>|]/.test(name)) {
      setError('Names cannot be empty or contain \\ / : * ? " < > |');
      return;
    }
    if (parent && siblingsHaveName(parent, name, renamingId)) {
      setError(`"${name}" already exists here`);
      return;
    }
    setRoot((r) => mapTree(r, (n) => (n.id === renamingId ? { ...n, name } : n)) as FolderNode);
    setRenamingId(null);
    setError('');
  };

  const onRenameKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      setRenamingId(null);
      setError('');
    }
  };

  const remove = () => {
    if (selection.node.id === root.id) return;
    const parent = selection.parents[selection.parents.length - 1];
    setRoot((r) => mapTree(r, (n) => (n.id === selection.node.id ? null : n)) as FolderNode);
    setSelectedId(parent?.id ?? root.id);
  };

  const renderNode = (node: TreeNode, depth: number) => {
    const isOpen = node.kind === 'folder' && expanded.has(node.id);
    const Icon = node.kind === 'folder' ? (isOpen ? FolderOpen : Folder) : iconFor(node.name);
    return (
      <li key={node.id}>
        <div
          onClick={() => setSelectedId(node.id)}
          onDoubleClick={() => {
            setRenamingId(node.id);
            setRenameValue(node.name);
          }}
          className={`flex cursor-pointer items-center gap-1 rounded px-1 py-0.5 text-sm ${node.id === selectedId ? 'bg-blue-100 text-blue-900' : 'hover:bg-gray-100'}`}
          style={{ paddingLeft: depth * 14 + 4 }}
        >
          {node.kind === 'folder' ? (
            <button
              onClick={(e) => {
                e.stopPropagation();
                toggle(node.id);
              }}
              className="text-gray-400"
              aria-label={isOpen ? 'Collapse' : 'Expand'}
            >
              {isOpen ? <ChevronDown size={14} /> : <ChevronRight size={14} />}
            </button>
          ) : (
            <span className="w-[14px]" />
          )}
          <Icon size={16} className={node.kind === 'folder' ? 'text-amber-500' : 'text-gray-500'} />
          {renamingId === node.id ? (
            <form onSubmit={commitRename} className="flex-1">
              <input autoFocus value={renameValue} onChange={(e) => setRenameValue(e.target.value)} onKeyDown={onRenameKey} onBlur={() => commitRename()} className="w-full rounded border border-blue-400 px-1 text-sm outline-none" />
            </form>
          ) : (
            <span className="truncate">{node.name}</span>
          )}
        </div>
        {node.kind === 'folder' && isOpen && (
          <ul>
            {sortNodes(node.children).map((c) => renderNode(c, depth + 1))}
            {node.children.length === 0 && (
              <li className="py-0.5 text-xs italic text-gray-400" style={{ paddingLeft: (depth + 1) * 14 + 22 }}>
                empty
              </li>
            )}
          </ul>
        )}
      </li>
    );
  };

  const selected = selection.node;

  return (
    <div className="flex h-screen flex-col bg-white text-gray-800">
      <header className="flex items-center gap-2 border-b border-gray-200 px-4 py-2">
        <button onClick={() => create('folder')} className="flex items-center gap-1 rounded px-2 py-1 text-sm hover:bg-gray-100">
          <FolderPlus size={16} /> Folder
        </button>
        <button onClick={() => create('file')} className="flex items-center gap-1 rounded px-2 py-1 text-sm hover:bg-gray-100">
          <FilePlus size={16} /> File
        </button>
        <button
          onClick={() => {
            setRenamingId(selected.id);
            setRenameValue(selected.name);
          }}
          disabled={selected.id === root.id}
          className="flex items-center gap-1 rounded px-2 py-1 text-sm hover:bg-gray-100 disabled:opacity-40"
        >
          <Pencil size={16} /> Rename
        </button>
        <button onClick={remove} disabled={selected.id === root.id} className="flex items-center gap-1 rounded px-2 py-1 text-sm text-red-600 hover:bg-red-50 disabled:opacity-40">
          <Trash2 size={16} /> Delete
        </button>
        {error && <span className="ml-4 text-xs text-red-600">{error}</span>}
        <span className="ml-auto text-xs text-gray-400">
          {stats.files} files · {formatBytes(stats.bytes)}
        </span>
      </header>
      <div className="flex flex-1 overflow-hidden">
        <nav className="w-72 overflow-y-auto border-r border-gray-200 p-2">
          <ul>{renderNode(root, 0)}</ul>
        </nav>
        <main className="flex-1 overflow-y-auto p-6">
          <div className="mb-4 flex items-center gap-1 text-sm text-gray-500">
            {[...selection.parents, selected].map((n, i, arr) => (
              <span key={n.id} className="flex items-center gap-1">
                <button onClick={() => setSelectedId(n.id)} className={i === arr.length - 1 ? 'font-semibold text-gray-900' : 'hover:underline'}>
                  {n.name}
                </button>
                {i < arr.length - 1 && <ChevronRight size={12} />}
              </span>
            ))}
          </div>
          {selected.kind === 'folder' ? (
            <div className="grid grid-cols-4 gap-4">
              {sortNodes(selected.children).map((c) => {
                const Icon = c.kind === 'folder' ? Folder : iconFor(c.name);
                return (
                  <button
                    key={c.id}
                    onClick={() => setSelectedId(c.id)}
                    onDoubleClick={() => c.kind === 'folder' && setExpanded((s) => new Set(s).add(c.id))}
                    className="flex flex-col items-center gap-2 rounded-xl border border-gray-200 p-4 hover:border-blue-300 hover:bg-blue-50"
                  >
                    <Icon size={36} className={c.kind === 'folder' ? 'text-amber-500' : 'text-gray-500'} />
                    <span className="w-full truncate text-center text-sm">{c.name}</span>
                    <span className="text-xs text-gray-400">{c.kind === 'folder' ? `${c.children.length} items` : formatBytes(c.size)}</span>
                  </button>
                );
              })}
              {selected.children.length === 0 && <p className="col-span-4 py-16 text-center text-gray-400">This folder is empty.</p>}
            </div>
          ) : (
            <div>
              <div className="mb-3 flex gap-6 text-xs text-gray-500">
                <span>Size: {formatBytes(selected.size)}</span>
                <span>Modified: {selected.modified}</span>
              </div>
              <pre className="min-h-[200px] whitespace-pre-wrap rounded-lg bg-gray-900 p-4 font-mono text-sm text-gray-100">{selected.content || '(empty file)'}</pre>
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
