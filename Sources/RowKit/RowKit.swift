import CCore
